//! `float_vs_fixed` (issue 8): one ragdoll's frame (integrate, two
//! relaxation passes, the box room, the speed cap) in the engine's FX32
//! and in its `f32` twin (`dsphys::floatref`, soft-float on the FPU-less
//! ARM9), the same drop, timed in the same run. The twin runs twice: with
//! `libm`'s square root (`softfloat_us`) and with `micromath`'s
//! approximation (`micromath_us`), the fast-math choice of a `no_std`
//! user.

use super::{record, us_x10};
use crate::hw::once::TakeOnce;
use crate::hw::timer;
use dsphys::floatref::{FloatMath, FloatRagdoll, FloatRoom, FloatSettings, Libm, Micromath};
use dsphys::scenario::{tumbling_ragdoll_into, ROOM};
use dsphys::verlet::{Ragdoll, Settings};
use mailbox::Mailbox;

/// Frames of the drop timed (it hits the wall and the floor).
const FRAMES: u32 = 120;

/// The fixed frame, with the momentum give-back off: the twin has none
/// (float does not need it), so both do the same work.
#[inline(never)]
fn fixed_cycles(r: &mut Ragdoll) -> u64 {
    crate::hw::itcm::verlet();
    r.conserve_momentum = false;
    let s = Settings::DEFAULT;
    let mut total = 0u64;
    for _ in 0..FRAMES {
        let t0 = timer::cycles();
        r.step_with(&s, |_, p, c, rad| ROOM.collide(p, c, rad));
        total += timer::cycles().wrapping_sub(t0) as u64;
    }
    core::hint::black_box(r.state_hash());
    total
}

#[inline(never)]
fn float_cycles<M: FloatMath>(f: &mut FloatRagdoll) -> u64 {
    let (s, room) = (
        FloatSettings::new(&Settings::DEFAULT),
        FloatRoom::new(&ROOM),
    );
    let mut total = 0u64;
    for _ in 0..FRAMES {
        let t0 = timer::cycles();
        f.step_with::<M>(&s, &room);
        total += timer::cycles().wrapping_sub(t0) as u64;
    }
    core::hint::black_box(f.positions()[0]);
    total
}

/// The fixed ragdoll and its twin (2 KiB each): in statics, off the
/// 10 KiB DTCM stack (with both on it, the bench overflowed and hung).
static FIXED: TakeOnce<Option<Ragdoll>> = TakeOnce::new(None);
static TWIN: TakeOnce<Option<FloatRagdoll>> = TakeOnce::new(None);
static MICRO_TWIN: TakeOnce<Option<FloatRagdoll>> = TakeOnce::new(None);

#[inline(never)]
fn fixed_ragdoll() -> &'static mut Ragdoll {
    let slot = FIXED.take().expect("fixed ragdoll taken once");
    let r = Ragdoll::in_slot(slot);
    tumbling_ragdoll_into(r, dsphys::fx::Vec3::ZERO);
    r
}

#[inline(never)]
fn twin_of(
    slot: &'static TakeOnce<Option<FloatRagdoll>>,
    r: &Ragdoll,
) -> &'static mut FloatRagdoll {
    let slot = slot.take().expect("float twin taken once");
    slot.insert(FloatRagdoll::from_ragdoll(r))
}

/// `float_vs_fixed.fixed_us`, `.softfloat_us` and `.micromath_us`: us
/// per frame.
#[inline(never)]
pub fn figures(mb: &mut Mailbox) {
    let r = fixed_ragdoll();
    let f = twin_of(&TWIN, r);
    let m = twin_of(&MICRO_TWIN, r);
    let fixed = fixed_cycles(r) / FRAMES as u64;
    let soft = float_cycles::<Libm>(f) / FRAMES as u64;
    let micro = float_cycles::<Micromath>(m) / FRAMES as u64;
    record(mb, "float_vs_fixed.fixed_us", us_x10(fixed as u32), 1);
    record(mb, "float_vs_fixed.softfloat_us", us_x10(soft as u32), 1);
    record(mb, "float_vs_fixed.micromath_us", us_x10(micro as u32), 1);
}
