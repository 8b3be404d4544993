//! The rigid pieces on their own, outside any character: a ball joint's
//! and a hinge's rows against finite differences of their constraint
//! functions, box contacts against hand-worked cases, and two-bone IK.
//!
//! # Rows against their constraint functions
//! A joint row is `J v = target` with `target = -erp * C / dt`, where `C`
//! is the row's position error. So `J v` must be `dC/dt`, for any
//! velocities. The tests pose two boxes, let the joint push its rows, and
//! then, in `f64` and from the bodies' quaternions (not the engine's FX1
//! matrices), evaluate each row's `C` at the pose moved by `+-h` along
//! random velocities and spins: the central difference is `dC/dt` to
//! `O(h^2)`. The rows' `J` are FX1 (1/4096): each entry is rounded once,
//! and the levers come from the FX1 rotation matrix (0.5 step per entry,
//! three terms, levers below 1 m), so `J` is within about 2 steps per
//! entry, and `J v` within [`JV_STEPS`] steps per unit of `sum |v_i| +
//! sum |w_i|`. A sign or lever mistake is off by the speed itself. Rows
//! built from normalised cross products or angles (the cone, the hinge
//! limit, a tilted hinge) get the wider bounds worked out beside them.
//! These bounds come from the rounding, not from measurement; the worst
//! errors seen are printed with `--nocapture` (0.3 to 0.8 steps for
//! `J v` of the plain rows, 4.8 for the cone's).
//!
//! # Contacts
//! Each case is worked by hand: which corners touch, how deep, the
//! normal, and so the rows' levers (`(point - centre) x normal`) and
//! targets (`ContactSettings::DEFAULT`).

use dsphys::fx::{Fx1, Fx2, Quat, Vec3};
use dsphys::rigid::body::{Body, STATIC};
use dsphys::rigid::contact::{box_box, box_plane, ContactSettings, Plane};
use dsphys::rigid::ik::two_bone;
use dsphys::rigid::row::NO_NORMAL;
use dsphys::rigid::{Joint, JointKind, Row, Rows};

type V = [f64; 3];

/// FX1 steps of `J v` error allowed per unit of summed speed (see the
/// module doc).
const JV_STEPS: f64 = 4.0;
const STEP: f64 = 1.0 / 4096.0;

fn fx(x: f64) -> Fx1 {
    Fx1::from_raw((x * 4096.0).round() as i32)
}
fn v1(a: V) -> Vec3 {
    Vec3::new(fx(a[0]), fx(a[1]), fx(a[2]))
}
fn v2(a: V) -> Vec3<Fx2> {
    Vec3::new(fx(a[0]), fx(a[1]), fx(a[2])).map(Fx1::raise)
}
fn f1(v: Vec3) -> V {
    v.to_array().map(Fx1::to_f64)
}
fn f2(v: Vec3<Fx2>) -> V {
    v.to_array().map(Fx2::to_f64)
}
fn add(a: V, b: V) -> V {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn scale(a: V, s: f64) -> V {
    a.map(|c| c * s)
}
fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: V, b: V) -> V {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn norm(a: V) -> f64 {
    dot(a, a).sqrt()
}
fn unit(a: V) -> V {
    scale(a, 1.0 / norm(a))
}
fn l1(a: V) -> f64 {
    a.iter().map(|c| c.abs()).sum()
}

/// A unit quaternion `[w, x, y, z]` in `f64`.
type Q = [f64; 4];

fn qmul(a: Q, b: Q) -> Q {
    [
        a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
        a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
        a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
        a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
    ]
}
fn qrot(q: Q, v: V) -> V {
    let u = [q[1], q[2], q[3]];
    // v + 2 w (u x v) + 2 u x (u x v)
    let t = scale(cross(u, v), 2.0);
    add(add(v, scale(t, q[0])), cross(u, t))
}
fn q_axis_angle(axis: V, angle: f64) -> Q {
    let a = unit(axis);
    let (s, c) = (angle / 2.0).sin_cos();
    [c, a[0] * s, a[1] * s, a[2] * s]
}
/// To the engine's Q30 quaternion.
fn to_quat(q: Q) -> Quat {
    let r = q.map(|c| (c * (1u64 << 30) as f64).round() as i32);
    Quat::from_raw_q30(r[0], r[1], r[2], r[3]).normalise()
}

/// xorshift64 for test inputs.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in `[-a, a]`.
    fn sym(&mut self, a: f64) -> f64 {
        a * (2.0 * self.next() - 1.0)
    }
    fn vec(&mut self, a: f64) -> V {
        [self.sym(a), self.sym(a), self.sym(a)]
    }
    fn quat(&mut self) -> Q {
        let axis = self.vec(1.0);
        let angle = self.sym(std::f64::consts::PI);
        q_axis_angle(axis, angle)
    }
}

/// A body's pose and velocities in `f64` (the static world: identity,
/// at rest).
#[derive(Clone, Copy)]
struct Pose {
    p: V,
    q: Q,
    v: V,
    w: V,
}

impl Pose {
    fn of(bodies: &[Body], i: u8) -> Pose {
        if i == STATIC {
            return Pose {
                p: [0.0; 3],
                q: [1.0, 0.0, 0.0, 0.0],
                v: [0.0; 3],
                w: [0.0; 3],
            };
        }
        let b = &bodies[i as usize];
        Pose {
            p: f2(b.pos),
            q: b.rot.to_f64(),
            v: f2(b.vel),
            w: f2(b.spin),
        }
    }
    /// The pose `t` seconds on: `p + v t`, and the orientation turned by
    /// the world spin, `exp(w t / 2) q`.
    fn moved(&self, t: f64) -> Pose {
        let angle = norm(self.w) * t;
        let q = if angle == 0.0 {
            self.q
        } else {
            qmul(q_axis_angle(self.w, angle), self.q)
        };
        Pose {
            p: add(self.p, scale(self.v, t)),
            q,
            ..*self
        }
    }
    fn point(&self, local: Vec3) -> V {
        add(self.p, qrot(self.q, f1(local)))
    }
    fn dir(&self, local: Vec3) -> V {
        qrot(self.q, f1(local))
    }
}

/// `J v` of a row, in `f64`, from the poses' velocities.
fn row_jv(row: &Row, a: &Pose, b: &Pose) -> f64 {
    dot(f1(row.lin), sub(b.v, a.v)) + dot(f1(row.ang_a), a.w) + dot(f1(row.ang_b), b.w)
}

/// FX1 steps allowed in a row's `J v` (per unit of summed speed) and in
/// its position error `C` (see the module doc and each caller).
#[derive(Clone, Copy)]
struct Tol {
    jv_steps: f64,
    c_steps: f64,
}

/// The rows whose `J` and `C` come from FX1 rotations, levers and unit
/// vectors directly.
const PLAIN: Tol = Tol {
    jv_steps: JV_STEPS,
    c_steps: 2.0,
};

/// Checks one row: `J v` against the central difference of `c` (the
/// row's position error as a function of the two poses) and the target
/// against `-erp * c / dt`. Returns the errors in FX1 steps (`J v` per
/// unit of speed, and `C`).
fn check_row(
    name: &str,
    row: &Row,
    (a, b): (&Pose, &Pose),
    tol: Tol,
    c: impl Fn(&Pose, &Pose) -> f64,
) -> (f64, f64) {
    let h = 1e-5;
    let dc = (c(&a.moved(h), &b.moved(h)) - c(&a.moved(-h), &b.moved(-h))) / (2.0 * h);
    let jv = row_jv(row, a, b);
    let speed = l1(a.v) + l1(a.w) + l1(b.v) + l1(b.w);
    let jv_err = (jv - dc).abs() / (STEP * speed);
    assert!(
        jv_err <= tol.jv_steps,
        "{name}: J v = {jv:.6}, dC/dt = {dc:.6} ({jv_err:.2} steps per unit of speed)"
    );
    let want = -ERP * c(a, b) * 60.0;
    let target = row.target.to_f64();
    let c_err = (target - want).abs() / (ERP * 60.0 * STEP);
    assert!(
        c_err <= tol.c_steps,
        "{name}: target {target:.6}, -erp C / dt = {want:.6} (C off by {c_err:.2} steps)"
    );
    (jv_err, c_err)
}

/// The largest errors seen, in steps, for the printout.
#[derive(Default)]
struct Worst(f64, f64);
impl Worst {
    fn add(&mut self, (jv, c): (f64, f64)) {
        self.0 = self.0.max(jv);
        self.1 = self.1.max(c);
    }
    fn print(&self, what: &str) {
        println!(
            "{what}: worst J v error {:.2} steps per unit of speed, C {:.2} steps",
            self.0, self.1
        );
    }
}

/// Two boxes in random poses with random velocities and spins (`a` may
/// be the static world).
fn random_pair(rng: &mut Rng, a_static: bool) -> Vec<Body> {
    let mut bodies = Vec::new();
    for k in 0..2 {
        let pos = add(rng.vec(0.5), [0.0, 1.0 + 0.4 * k as f64, 0.0]);
        let half = [0.1 + 0.1 * rng.next(), 0.15, 0.05 + 0.1 * rng.next()];
        let mass = if k == 0 && a_static { 0.0 } else { 2.0 };
        let mut b = Body::new_box(v1(half), fx(mass), v1(pos), to_quat(rng.quat()));
        if mass > 0.0 {
            b.vel = v2(rng.vec(1.0));
            b.spin = v2(rng.vec(2.0));
        }
        bodies.push(b);
    }
    bodies
}

/// The bodies' indices: body 0 or the static world, and body 1.
fn ends(a_static: bool) -> (u8, u8) {
    (if a_static { STATIC } else { 0 }, 1)
}

/// Moves body 1 by `offset` and turns it by `turn` (world axis-angle):
/// joint drift for the targets to correct.
fn drift(bodies: &mut [Body], offset: V, turn: Q) {
    let b = &mut bodies[1];
    b.pos = v2(add(f2(b.pos), offset));
    b.rot = to_quat(qmul(turn, b.rot.to_f64()));
    b.update_derived();
}

const ERP: f64 = 0.2;

/// The three linear rows: `C = (p_b + R_b r_b) - (p_a + R_a r_a)` along
/// each row's axis.
fn check_linear_rows(
    rows: &[Row],
    joint: &Joint,
    ab: (&Pose, &Pose),
    what: &str,
    worst: &mut Worst,
) {
    for (k, row) in rows[..3].iter().enumerate() {
        let axis = f1(row.lin);
        assert_eq!(norm(axis), 1.0, "{what}: linear row {k} along {axis:?}");
        let c =
            |a: &Pose, b: &Pose| dot(sub(b.point(joint.anchor_b), a.point(joint.anchor_a)), axis);
        worst.add(check_row(
            &format!("{what}, linear row {k}"),
            row,
            ab,
            PLAIN,
            c,
        ));
    }
}

#[test]
fn ball_joint_rows_are_the_derivative_of_the_anchor_separation() {
    let mut rng = Rng(0x0ba1_1001);
    let mut worst = Worst::default();
    for case in 0..200 {
        let a_static = case % 4 == 0;
        let mut bodies = random_pair(&mut rng, a_static);
        let (ia, ib) = ends(a_static);
        let anchor = add(f2(bodies[1].pos), rng.vec(0.2));
        let joint = Joint::ball(&bodies, ia, ib, v1(anchor), Vec3::Y, None);
        // Drift of up to 2 cm and 0.1 rad, so that the targets are not 0.
        drift(&mut bodies, rng.vec(0.02), q_axis_angle(rng.vec(1.0), 0.1));
        let mut rows: Rows<16> = Rows::default();
        joint.push_rows(&bodies, &mut rows, fx(ERP), 0);
        assert_eq!(rows.len(), 3, "case {case}: an unlimited ball has 3 rows");
        let (a, b) = (Pose::of(&bodies, ia), Pose::of(&bodies, ib));
        let what = format!("ball case {case}");
        check_linear_rows(rows.as_slice(), &joint, (&a, &b), &what, &mut worst);
    }
    worst.print("ball joint rows");
}

#[test]
fn ball_cone_limit_row_is_the_derivative_of_the_cone_angle() {
    let mut rng = Rng(0xc0de_0002);
    let cone = 0.3;
    let mut worst = Worst::default();
    for case in 0..100 {
        let mut bodies = random_pair(&mut rng, case % 3 == 0);
        let (ia, ib) = ends(case % 3 == 0);
        let twist = unit(rng.vec(1.0));
        let anchor = f2(bodies[1].pos);
        let joint = Joint::ball(&bodies, ia, ib, v1(anchor), v1(twist), Some(fx(cone)));
        // Tilt b's twist axis 0.35..0.6 rad away: past the cone.
        let tilt = cross(twist, unit(rng.vec(1.0)));
        let angle = 0.35 + 0.25 * rng.next();
        drift(&mut bodies, [0.0; 3], q_axis_angle(tilt, angle));
        let mut rows: Rows<16> = Rows::default();
        joint.push_rows(&bodies, &mut rows, fx(ERP), 0);
        assert_eq!(rows.len(), 4, "case {case}: 3 rows and the cone's");
        let row = &rows.as_slice()[3];
        assert_eq!((row.lo, row.lin), (Fx2::ZERO, Vec3::ZERO), "case {case}");
        let JointKind::Ball {
            twist_a, twist_b, ..
        } = joint.kind
        else {
            unreachable!()
        };
        // C = cone - angle between the twist axes (>= 0 allowed).
        let c =
            |a: &Pose, b: &Pose| cone - dot(a.dir(twist_a), b.dir(twist_b)).clamp(-1.0, 1.0).acos();
        let (a, b) = (Pose::of(&bodies, ia), Pose::of(&bodies, ib));
        assert!(c(&a, &b) < 0.0, "case {case}: the cone is not violated");
        // The row's axis is the normalised cross product of the two FX1
        // twist axes (each within 1.5 steps per component), whose length
        // is sin(angle): its direction is within about 5 / sin(angle)
        // steps; the angle comes from acos of their FX1 dot product (3
        // steps), i.e. 3 / sin(angle) steps.
        let sin = angle.sin();
        let tol = Tol {
            jv_steps: JV_STEPS + 5.0 / sin,
            c_steps: 2.0 + 3.0 / sin,
        };
        worst.add(check_row(
            &format!("cone case {case}"),
            row,
            (&a, &b),
            tol,
            c,
        ));
    }
    worst.print("ball cone row");
}

#[test]
fn hinge_rows_are_the_derivatives_of_separation_and_alignment() {
    let mut rng = Rng(0x4119_e003);
    let mut worst = Worst::default();
    for case in 0..200 {
        let a_static = case % 4 == 0;
        let mut bodies = random_pair(&mut rng, a_static);
        let (ia, ib) = ends(a_static);
        let anchor = add(f2(bodies[1].pos), rng.vec(0.2));
        let axis = unit(rng.vec(1.0));
        let joint = Joint::hinge(&bodies, ia, ib, v1(anchor), v1(axis), None);
        // Only positional drift: the alignment rows are the linearisation
        // of the axes' misalignment at alignment, where it is exact.
        drift(&mut bodies, rng.vec(0.02), [1.0, 0.0, 0.0, 0.0]);
        let mut rows: Rows<16> = Rows::default();
        joint.push_rows(&bodies, &mut rows, fx(ERP), 0);
        assert_eq!(rows.len(), 5, "case {case}: 3 linear and 2 angular rows");
        let (a, b) = (Pose::of(&bodies, ia), Pose::of(&bodies, ib));
        let what = format!("hinge case {case}");
        check_linear_rows(rows.as_slice(), &joint, (&a, &b), &what, &mut worst);
        let JointKind::Hinge { axis_a, axis_b, .. } = joint.kind else {
            unreachable!()
        };
        for (k, row) in rows.as_slice()[3..].iter().enumerate() {
            // Row::angular: ang_b is the axis u, ang_a = -u, no linear part.
            let u = f1(row.ang_b);
            assert_eq!(f1(row.ang_a), scale(u, -1.0), "{what}");
            assert_eq!(row.lin, Vec3::ZERO, "{what}");
            assert!(
                dot(u, a.dir(axis_a)).abs() < 2.0 * STEP,
                "{what}: u not across the axis"
            );
            // C = (a1 x a2) . u: the tilt of b's axis from a's, about u.
            let c = |a: &Pose, b: &Pose| dot(cross(a.dir(axis_a), b.dir(axis_b)), u);
            worst.add(check_row(
                &format!("{what}, angular row {k}"),
                row,
                (&a, &b),
                PLAIN,
                c,
            ));
        }
    }
    worst.print("hinge rows");
}

/// The hinge's alignment rows when the axes are apart: the targets
/// against `-erp C / dt` of the tilt. (`J v` is the tilt's derivative
/// only at alignment, checked above; off it they differ by the tilt
/// times the spin.)
#[test]
fn hinge_alignment_targets_correct_the_tilt() {
    let mut rng = Rng(0x7117_e006);
    let mut worst_c = 0.0f64;
    for case in 0..200 {
        let a_static = case % 4 == 0;
        let mut bodies = random_pair(&mut rng, a_static);
        let (ia, ib) = ends(a_static);
        let anchor = f2(bodies[1].pos);
        let axis = unit(rng.vec(1.0));
        let joint = Joint::hinge(&bodies, ia, ib, v1(anchor), v1(axis), None);
        let tilt = 0.01 + 0.04 * rng.next();
        drift(&mut bodies, [0.0; 3], q_axis_angle(rng.vec(1.0), tilt));
        let mut rows: Rows<16> = Rows::default();
        joint.push_rows(&bodies, &mut rows, fx(ERP), 0);
        let (a, b) = (Pose::of(&bodies, ia), Pose::of(&bodies, ib));
        let JointKind::Hinge { axis_a, axis_b, .. } = joint.kind else {
            unreachable!()
        };
        let mut sum = 0.0;
        for (k, row) in rows.as_slice()[3..5].iter().enumerate() {
            let u = f1(row.ang_b);
            let c = |a: &Pose, b: &Pose| dot(cross(a.dir(axis_a), b.dir(axis_b)), u);
            sum += c(&a, &b).powi(2);
            // The engine's tilt is the cross product of two FX1 axes
            // (1.5 steps per component each: 3 steps), rounded twice.
            let tol = Tol {
                jv_steps: f64::INFINITY,
                c_steps: 4.0,
            };
            let what = format!("tilted hinge case {case}, angular row {k}");
            let (_, c_err) = check_row(&what, row, (&a, &b), tol, c);
            worst_c = worst_c.max(c_err);
        }
        // The two rows see all of the tilt: |a1 x a2| = sin(tilt).
        let seen = sum.sqrt();
        let want = cross(a.dir(axis_a), b.dir(axis_b));
        assert!(
            (seen - norm(want)).abs() < 4.0 * STEP,
            "case {case}: the rows see {seen} of a {} tilt",
            norm(want)
        );
    }
    println!("tilted hinge alignment rows: worst C error {worst_c:.2} steps");
}

#[test]
fn hinge_limit_row_is_the_derivative_of_the_hinge_angle() {
    let mut rng = Rng(0x1111_e004);
    let (lo, hi) = (-0.2, 0.3);
    let mut worst = Worst::default();
    for case in 0..100 {
        let a_static = case % 4 == 0;
        let mut bodies = random_pair(&mut rng, a_static);
        let (ia, ib) = ends(a_static);
        let anchor = f2(bodies[1].pos);
        let axis = unit(rng.vec(1.0));
        let limits = Some((fx(lo), fx(hi)));
        let joint = Joint::hinge(&bodies, ia, ib, v1(anchor), v1(axis), limits);
        // Turn b about the hinge axis past one limit (0.1..0.3 rad).
        let past = 0.1 + 0.2 * rng.next();
        let angle = if case % 2 == 0 { hi + past } else { lo - past };
        drift(&mut bodies, [0.0; 3], q_axis_angle(axis, angle));
        let mut rows: Rows<16> = Rows::default();
        joint.push_rows(&bodies, &mut rows, fx(ERP), 0);
        assert_eq!(rows.len(), 6, "case {case}: 5 rows and the limit's");
        let row = &rows.as_slice()[5];
        assert_eq!(row.lo, Fx2::ZERO, "case {case}: a limit only pushes");
        let JointKind::Hinge {
            axis_a,
            ref_a,
            ref_b,
            ..
        } = joint.kind
        else {
            unreachable!()
        };
        let hinge_angle = |a: &Pose, b: &Pose| {
            let (n, ra, rb) = (a.dir(axis_a), a.dir(ref_a), b.dir(ref_b));
            dot(cross(ra, rb), n).atan2(dot(ra, rb))
        };
        // C >= 0 is allowed: angle - lo, or hi - angle.
        let c = |a: &Pose, b: &Pose| {
            if angle > hi {
                hi - hinge_angle(a, b)
            } else {
                hinge_angle(a, b) - lo
            }
        };
        let (a, b) = (Pose::of(&bodies, ia), Pose::of(&bodies, ib));
        assert!(
            (hinge_angle(&a, &b) - angle).abs() < 0.01,
            "case {case}: angle {} not {angle}",
            hinge_angle(&a, &b)
        );
        // The engine's angle is atan2 of a sine and a cosine made from
        // FX1 vectors (1.5 steps each, a cross and two dots): 4 steps.
        let tol = Tol {
            jv_steps: JV_STEPS,
            c_steps: 4.0,
        };
        worst.add(check_row(
            &format!("limit case {case}"),
            row,
            (&a, &b),
            tol,
            c,
        ));
    }
    worst.print("hinge limit row");
}

// ---- Contacts -------------------------------------------------------

/// One contact as the rows give it: the normal row and its friction rows.
struct Found {
    normal: V,
    /// `lever x normal` of each side, to match against expected points.
    ang_a: V,
    ang_b: V,
    target: f64,
    a: u8,
    b: u8,
}

/// The contacts in `rows`: every normal row (no friction link, `lo = 0`),
/// after checking that exactly two tangent friction rows (across the
/// normal) bound their impulse by its, alone or in a patch of three or
/// more with a twist row about the normal.
fn contacts<const R: usize>(rows: &Rows<R>) -> Vec<Found> {
    let rows = rows.as_slice();
    let mut out = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        if r.friction_of != NO_NORMAL {
            continue;
        }
        assert_eq!(r.lo, Fx2::ZERO, "a contact only pushes");
        let n = f1(r.lin);
        let bounding: Vec<&Row> = rows
            .iter()
            .filter(|f| {
                let first = f.friction_of as usize;
                f.friction_of != NO_NORMAL
                    && (first..first + f.normals.max(1) as usize).contains(&i)
            })
            .collect();
        let (tangents, twists): (Vec<&Row>, Vec<&Row>) =
            bounding.into_iter().partition(|f| f.lin != Vec3::ZERO);
        assert_eq!(tangents.len(), 2, "row {i}");
        for f in tangents {
            let t = f1(f.lin);
            assert!(dot(t, n).abs() < 2.0 * STEP && (norm(t) - 1.0).abs() < 2.0 * STEP);
        }
        let patch = rows.iter().any(|f| {
            f.friction_of != NO_NORMAL && f.normals >= 3 && {
                let first = f.friction_of as usize;
                (first..first + f.normals as usize).contains(&i)
            }
        });
        assert_eq!(
            twists.len(),
            patch as usize,
            "row {i}: a twist row in a patch only"
        );
        for f in twists {
            assert!(dot(f1(f.ang_b), n) > 1.0 - 2.0 * STEP && f.mu > Fx1::ZERO);
        }
        out.push(Found {
            normal: n,
            ang_a: f1(r.ang_a),
            ang_b: f1(r.ang_b),
            target: r.target.to_f64(),
            a: r.a,
            b: r.b,
        });
    }
    out
}

/// The contact target for a penetration `depth` (m; negative: a gap
/// within the margin), worked from `ContactSettings::DEFAULT` (erp 0.2,
/// slop 2 mm): `(depth - slop) * erp / dt`, or `depth / dt` for a gap.
fn contact_target(depth: f64) -> f64 {
    if depth > 0.0 {
        (depth - 0.002).max(0.0) * 0.2 * 60.0
    } else {
        depth * 60.0
    }
}

/// Checks that the contacts are exactly the expected ones: each expected
/// `(point, depth)` matched by one contact between `a` and `b` with
/// normal `n` (from `a` to `b`), whose angular rows are the levers from
/// each body's centre to the point crossed with `n`.
fn check_contacts(found: &[Found], bodies: &[Body], a: u8, b: u8, n: V, expected: &[(V, f64)]) {
    assert_eq!(found.len(), expected.len(), "contact count");
    // The lever from a body's centre to the point; the static world
    // takes no angular impulse, and its rows carry a zero lever.
    let lever = |i: u8, p: V| {
        if i == STATIC {
            [0.0; 3]
        } else {
            sub(p, f2(bodies[i as usize].pos))
        }
    };
    let tol = 3.0 * STEP;
    let mut used = vec![false; found.len()];
    for &(p, depth) in expected {
        let want_a = scale(cross(lever(a, p), n), -1.0);
        let want_b = cross(lever(b, p), n);
        let hit = found.iter().enumerate().position(|(k, f)| {
            !used[k]
                && l1(sub(f.ang_a, want_a)) <= tol
                && l1(sub(f.ang_b, want_b)) <= tol
                && (f.a, f.b) == (a, b)
        });
        let Some(k) = hit else {
            panic!("no contact at {p:?}");
        };
        used[k] = true;
        let f = &found[k];
        assert!(
            l1(sub(f.normal, n)) <= tol,
            "normal {:?}, want {n:?}",
            f.normal
        );
        let want = contact_target(depth);
        assert!(
            (f.target - want).abs() <= 60.0 * 2.0 * STEP,
            "at {p:?}: target {} for depth {depth}, want {want}",
            f.target
        );
    }
}

fn cube(pos: V, half: f64, rot: Q, mass: f64) -> Body {
    Body::new_box(v1([half; 3]), fx(mass), v1(pos), to_quat(rot))
}

const NO_TURN: Q = [1.0, 0.0, 0.0, 0.0];

#[test]
fn box_plane_contacts_are_the_corners_below_the_plane() {
    let s = ContactSettings::DEFAULT;
    // A unit cube sunk 1 cm into the ground: its four bottom corners.
    let bodies = [cube([0.0, 0.49, 0.0], 0.5, NO_TURN, 1.0)];
    let mut rows: Rows<64> = Rows::default();
    assert_eq!(box_plane(&mut rows, &bodies, 0, &Plane::GROUND, &s), 4);
    let expected: Vec<(V, f64)> = [[-0.5, -0.5], [0.5, -0.5], [-0.5, 0.5], [0.5, 0.5]]
        .iter()
        .map(|&[x, z]| ([x, -0.01, z], 0.01))
        .collect();
    check_contacts(
        &contacts(&rows),
        &bodies,
        STATIC,
        0,
        [0.0, 1.0, 0.0],
        &expected,
    );

    // Turned 45 degrees about z and lowered onto an edge: the edge's two
    // corners, at x = 0, y = 0.70 - 0.5 sqrt(2), z = +-0.5 (7.1 mm deep);
    // the side corners at y = 0.70 are far outside the 2 cm margin.
    let r = 0.5 * std::f64::consts::SQRT_2;
    let turn = q_axis_angle([0.0, 0.0, 1.0], std::f64::consts::FRAC_PI_4);
    let bodies = [cube([0.0, 0.70, 0.0], 0.5, turn, 1.0)];
    let mut rows: Rows<64> = Rows::default();
    assert_eq!(box_plane(&mut rows, &bodies, 0, &Plane::GROUND, &s), 2);
    let y = 0.70 - r;
    let expected = [([0.0, y, -0.5], -y), ([0.0, y, 0.5], -y)];
    check_contacts(
        &contacts(&rows),
        &bodies,
        STATIC,
        0,
        [0.0, 1.0, 0.0],
        &expected,
    );

    // 1 cm above the ground: speculative contacts (within the margin)
    // that allow closing the gap this step and no more; 3 cm above: none.
    let bodies = [cube([0.0, 0.51, 0.0], 0.5, NO_TURN, 1.0)];
    let mut rows: Rows<64> = Rows::default();
    assert_eq!(box_plane(&mut rows, &bodies, 0, &Plane::GROUND, &s), 4);
    for f in contacts(&rows) {
        assert!((f.target - contact_target(-0.01)).abs() <= 60.0 * 2.0 * STEP);
    }
    let bodies = [cube([0.0, 0.53, 0.0], 0.5, NO_TURN, 1.0)];
    let mut rows: Rows<64> = Rows::default();
    assert_eq!(box_plane(&mut rows, &bodies, 0, &Plane::GROUND, &s), 0);
}

#[test]
fn box_box_contacts_on_a_face() {
    let s = ContactSettings::DEFAULT;
    // Body 1 (a unit cube) 1 cm into body 0 (the same) below it: the
    // normal is +y from 0 to 1, and 1's four bottom corners are the
    // contacts, 1 cm deep.
    let bodies = [
        cube([0.0, 0.0, 0.0], 0.5, NO_TURN, 1.0),
        cube([0.0, 0.99, 0.0], 0.5, NO_TURN, 1.0),
    ];
    let mut rows: Rows<64> = Rows::default();
    assert_eq!(box_box(&mut rows, &bodies, 1, 0, &s), 4);
    let expected: Vec<(V, f64)> = [[-0.5, -0.5], [0.5, -0.5], [-0.5, 0.5], [0.5, 0.5]]
        .iter()
        .map(|&[x, z]| ([x, 0.49, z], 0.01))
        .collect();
    check_contacts(&contacts(&rows), &bodies, 0, 1, [0.0, 1.0, 0.0], &expected);

    // The same pair side by side along x, 2 cm deep, with body 1 turned
    // 90 degrees about x (a cube looks the same): normal +x.
    let turn = q_axis_angle([1.0, 0.0, 0.0], std::f64::consts::FRAC_PI_2);
    let bodies = [
        cube([0.0, 0.0, 0.0], 0.5, NO_TURN, 1.0),
        cube([0.98, 0.0, 0.0], 0.5, turn, 1.0),
    ];
    let mut rows: Rows<64> = Rows::default();
    assert_eq!(box_box(&mut rows, &bodies, 1, 0, &s), 4);
    let expected: Vec<(V, f64)> = [[-0.5, -0.5], [0.5, -0.5], [-0.5, 0.5], [0.5, 0.5]]
        .iter()
        .map(|&[y, z]| ([0.48, y, z], 0.02))
        .collect();
    check_contacts(&contacts(&rows), &bodies, 0, 1, [1.0, 0.0, 0.0], &expected);

    // 5 cm apart: beyond the 2 cm margin, no contact.
    let bodies = [
        cube([0.0, 0.0, 0.0], 0.5, NO_TURN, 1.0),
        cube([0.0, 1.05, 0.0], 0.5, NO_TURN, 1.0),
    ];
    let mut rows: Rows<64> = Rows::default();
    assert_eq!(box_box(&mut rows, &bodies, 1, 0, &s), 0);
    assert!(rows.is_empty());
}

#[test]
fn box_box_contacts_small_box_on_big_and_big_on_small() {
    let s = ContactSettings::DEFAULT;
    // A 0.2 m box (body 1) resting 1 cm into the top of a 2 m box (body
    // 0), off centre: its four bottom corners.
    let (x, z) = (0.3, -0.2);
    let bodies = [
        cube([0.0, 0.0, 0.0], 1.0, NO_TURN, 10.0),
        cube([x, 1.09, z], 0.1, NO_TURN, 1.0),
    ];
    let mut rows: Rows<64> = Rows::default();
    assert_eq!(box_box(&mut rows, &bodies, 1, 0, &s), 4);
    let expected: Vec<(V, f64)> = [[-0.1, -0.1], [0.1, -0.1], [-0.1, 0.1], [0.1, 0.1]]
        .iter()
        .map(|&[dx, dz]| ([x + dx, 0.99, z + dz], 0.01))
        .collect();
    check_contacts(&contacts(&rows), &bodies, 0, 1, [0.0, 1.0, 0.0], &expected);

    // The 2 m box (body 1) 1 cm onto the 0.2 m box (body 0): none of its
    // corners is inside the small box, so the small box's four top
    // corners are the contacts (same pair order, same normal).
    let bodies = [
        cube([0.0, 0.0, 0.0], 0.1, NO_TURN, 1.0),
        cube([0.0, 1.09, 0.0], 1.0, NO_TURN, 10.0),
    ];
    let mut rows: Rows<64> = Rows::default();
    assert_eq!(box_box(&mut rows, &bodies, 1, 0, &s), 4);
    let expected: Vec<(V, f64)> = [[-0.1, -0.1], [0.1, -0.1], [-0.1, 0.1], [0.1, 0.1]]
        .iter()
        .map(|&[dx, dz]| ([dx, 0.1, dz], 0.01))
        .collect();
    check_contacts(&contacts(&rows), &bodies, 0, 1, [0.0, 1.0, 0.0], &expected);
}

// ---- Two-bone IK ----------------------------------------------------

/// Where the limb's end is: the upper segment along `upper`, the lower
/// one along `upper` turned by `bend` about `axis` (right hand).
fn limb_end(root: V, l1: f64, l2: f64, upper: V, axis: V, bend: f64) -> (V, V) {
    let elbow = add(root, scale(upper, l1));
    let lower = qrot(q_axis_angle(axis, bend), upper);
    (elbow, add(elbow, scale(lower, l2)))
}

/// Random roots, targets within reach (up to 2 mm from either end of it)
/// and poles (not within 2.6 degrees of the line): the end within 1 mm
/// of the target, the requirement (measured worst, printed: 0.26 mm), and
/// the elbow on the pole's side.
#[test]
fn two_bone_ik_reaches_targets_within_a_millimetre() {
    let mut rng = Rng(0x1c0_0005);
    // The Armed Mine's arm (0.3 + 0.3 m) and an unequal limb.
    for (l1, l2) in [(0.3, 0.3), (0.4, 0.25)] {
        let (near, far) = (f64::abs(l1 - l2) + 0.002, l1 + l2 - 0.002);
        let mut worst = 0.0f64;
        for case in 0..2000 {
            let root = rng.vec(1.0);
            let dir = unit(rng.vec(1.0));
            let dist = near + (far - near) * rng.next();
            let target = add(root, scale(dir, dist));
            let pole = unit(rng.vec(1.0));
            if dot(pole, dir).abs() > 0.999 {
                continue;
            }
            let ik = two_bone(v1(root), v1(target), fx(l1), fx(l2), v1(pole));
            // The limb as placed from the root and target it was given.
            let (root, target) = (f1(v1(root)), f1(v1(target)));
            assert!(
                ik.reached,
                "case {case}: {dist} m from the root is within reach"
            );
            let (upper, axis) = (f1(ik.upper), f1(ik.axis));
            let (elbow, end) = limb_end(root, l1, l2, upper, axis, ik.bend.to_f64());
            let miss = norm(sub(end, target));
            worst = worst.max(miss);
            assert!(
                miss <= 0.001,
                "limb {l1} + {l2}, case {case}: the end is {:.2} mm from the target",
                miss * 1000.0
            );
            // The elbow bends towards the pole.
            let mid = add(root, scale(dir, dot(sub(elbow, root), dir)));
            assert!(
                dot(sub(elbow, mid), pole) >= 0.0,
                "case {case}: elbow away from the pole"
            );
        }
        println!(
            "two-bone IK {l1} + {l2} m: worst miss {:.3} mm",
            worst * 1000.0
        );
    }
}

#[test]
fn two_bone_ik_says_when_the_target_is_out_of_reach() {
    let (l1, l2) = (0.4, 0.25);
    let root = [0.1, 1.0, -0.2];
    let dir = unit([1.0, -0.5, 0.3]);
    let pole = [0.0, 1.0, 0.0];
    // Too far: the straight limb, pointing at the target.
    for dist in [0.66, 0.8, 3.0] {
        let target = add(root, scale(dir, dist));
        let ik = two_bone(v1(root), v1(target), fx(l1), fx(l2), v1(pole));
        assert!(!ik.reached, "{dist} m is beyond {l1} + {l2} m");
        let (_, end) = limb_end(root, l1, l2, f1(ik.upper), f1(ik.axis), ik.bend.to_f64());
        let along = dot(sub(end, root), dir);
        assert!(
            norm(sub(end, add(root, scale(dir, along)))) < 0.002 && along > l1 + l2 - 0.003,
            "{dist} m: the limb does not point at the target ({end:?})"
        );
    }
    // Too close: nearer than |l1 - l2|, the tightest bend.
    for dist in [0.0, 0.05, 0.14] {
        let target = add(root, scale(dir, dist));
        let ik = two_bone(v1(root), v1(target), fx(l1), fx(l2), v1(pole));
        assert!(
            !ik.reached,
            "{dist} m is inside the {} m the limb can fold to",
            l1 - l2
        );
    }
    // Just inside both ends: reached.
    for dist in [0.152, 0.648] {
        let target = add(root, scale(dir, dist));
        let ik = two_bone(v1(root), v1(target), fx(l1), fx(l2), v1(pole));
        assert!(ik.reached, "{dist} m is within reach");
    }
}

/// A cube's derived data: the world inverse inertia is its moment times
/// the identity whatever the turn (exactly, as `R D R^T` for a rotation),
/// a brick's is not; the bounding radius is `|half|`.
#[test]
fn derived_inertia_and_radius() {
    let mut rng = Rng(0x150_0007);
    for _ in 0..50 {
        let axis = unit(rng.vec(1.0));
        let turn = q_axis_angle(axis, rng.sym(3.0));
        let c = cube([0.0, 1.0, 0.0], 0.15, turn, 1.0);
        assert!(c.isotropic);
        let d = c.inv_inertia.x;
        for (k, col) in c.inv_inertia_world.cols.iter().enumerate() {
            let want = [0, 1, 2].map(|r| if r == k { d } else { Fx1::ZERO });
            assert_eq!(col.to_array(), want);
        }
        assert_eq!(c.radius, c.half.length());
        let brick = Body::new_box(
            v1([0.3, 0.1, 0.2]),
            fx(2.0),
            v1([0.0, 1.0, 0.0]),
            to_quat(turn),
        );
        assert!(!brick.isotropic);
        assert_eq!(brick.radius, brick.half.length());
    }
    let p = Body::PLACEHOLDER;
    assert_eq!(p.radius, p.half.length());
}

#[test]
fn the_ground_normal_is_the_one_normal_new_gives() {
    use dsphys::rigid::contact::{Normal, GROUND_NORMAL};
    assert_eq!(GROUND_NORMAL, Normal::new(Vec3::Y));
}

#[test]
fn a_face_normal_has_a_right_handed_basis_of_the_other_axes() {
    use dsphys::rigid::contact::Normal;
    let axis = Vec3::new(Fx1::from_raw(2458), Fx1::ZERO, Fx1::from_raw(3277));
    let m = Quat::from_axis_angle(axis, dsphys::fx::Angle::from_raw(0x1c00)).to_mat3();
    for k in 0..3 {
        for flip in [false, true] {
            let f = Normal::of_face(&m.cols, k, flip);
            let n = if flip { -m.cols[k] } else { m.cols[k] };
            assert_eq!(f.n, n);
            let c = f1(f.t1.cross(f.t2).lower());
            assert!((c[0] - f1(n)[0]).abs() < 4.0 * STEP, "{k} {flip}");
            assert!(dot(f1(f.t1), f1(n)).abs() < 4.0 * STEP);
            assert!(dot(f1(f.t2), f1(n)).abs() < 4.0 * STEP);
            assert!(dot(c, f1(n)) > 1.0 - 8.0 * STEP, "{k} {flip}");
        }
    }
}
