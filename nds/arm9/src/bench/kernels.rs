//! A Verlet-like FX kernel compiled twice, into ITCM and into main RAM,
//! so the bench can time the same instructions from each memory.

const N: usize = 64;

/// Particle positions in DTCM (1-cycle data), so only the code's place varies.
pub struct Particles {
    cur: [[i32; 3]; N],
    prev: [[i32; 3]; N],
}

impl Particles {
    pub fn new() -> Self {
        let mut p = Particles {
            cur: [[0; 3]; N],
            prev: [[0; 3]; N],
        };
        for (i, (c, q)) in p.cur.iter_mut().zip(p.prev.iter_mut()).enumerate() {
            let x = (i as i32) << 10;
            *c = [x, x * 3, -x];
            *q = [x - 17, x * 3 + 5, -x + 3];
        }
        p
    }

    pub fn checksum(&self) -> u32 {
        self.cur
            .iter()
            .flatten()
            .fold(0u32, |h, v| h.rotate_left(5) ^ *v as u32)
    }
}

macro_rules! verlet_kernel {
    ($name:ident, $section:literal) => {
        /// 20 Verlet steps over N particles: x' = x + (x - prev) * damping + g,
        /// with the damping multiply done as FX1 x FX1 -> FX2 then rounded.
        #[inline(never)]
        #[link_section = $section]
        pub fn $name(p: &mut Particles) {
            const DAMPING: i64 = 4055; // 0.99 in FX1
            const GRAVITY: i32 = -11; // 9.81 m/s^2 * (1/60 s)^2 in FX1
            for _ in 0..20 {
                for (c, q) in p.cur.iter_mut().zip(p.prev.iter_mut()) {
                    for axis in 0..3 {
                        let v = (c[axis] - q[axis]) as i64 * DAMPING; // FX2
                        let step = ((v + 2048) >> 12) as i32; // FX1
                        q[axis] = c[axis];
                        c[axis] += step + if axis == 1 { GRAVITY } else { 0 };
                    }
                }
            }
        }
    };
}

verlet_kernel!(verlet_itcm, ".itcm.bench_kernel");
verlet_kernel!(verlet_main_ram, ".text.bench_kernel");
