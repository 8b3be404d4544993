//! The orbit camera: a target point, a yaw, a pitch and a distance. It
//! gives the GX its view and projection matrices and maps between world
//! points and top-screen pixels (for the stylus), with the same numbers.
//!
//! Units: metres (FX1). The projection is a 60-degree vertical field of
//! view on the 4:3 screen, near plane 0.1 m, far plane 64 m.

use dsphys::divsqrt::div_i64;
use dsphys::fx;
use dsphys::fx::{Angle, Fx1, Mat3, Mat4x3, Vec3};

/// `cot(30 degrees)`: the vertical projection scale.
const Y_SCALE: Fx1 = fx!(1.7320508);
/// `Y_SCALE * 3 / 4`: the horizontal one, for the 256x192 screen.
const X_SCALE: Fx1 = fx!(1.2990381);
const NEAR: Fx1 = fx!(0.1);
const FAR: Fx1 = fx!(64.0);

pub const MIN_DISTANCE: Fx1 = fx!(1.5);
pub const MAX_DISTANCE: Fx1 = fx!(40.0);
/// Pitch stays within +-80 degrees, so the view never flips over a pole.
const MAX_PITCH: u16 = 14563;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Camera {
    pub target: Vec3,
    /// Around the vertical axis; 0 looks along -z.
    pub yaw: Angle,
    /// Above the horizon (positive looks down on the target).
    pub pitch: Angle,
    pub distance: Fx1,
}

/// A point on the top screen: pixels from the top-left corner, and its
/// distance in front of the camera (metres).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScreenPoint {
    pub x: i32,
    pub y: i32,
    pub depth: Fx1,
}

impl Camera {
    /// Turns by `dyaw`, tilts by `dpitch` (clamped), and scales the
    /// distance by `1 + dzoom` (clamped), all in one step.
    pub fn orbit(&mut self, dyaw: i16, dpitch: i16, dzoom: Fx1) {
        self.yaw += Angle::from_raw(dyaw as u16);
        let pitch = (self.pitch.raw() as i16 as i32 + dpitch as i32)
            .clamp(-(MAX_PITCH as i32), MAX_PITCH as i32);
        self.pitch = Angle::from_raw(pitch as i16 as u16);
        let d = self.distance + self.distance.mul_lower(dzoom);
        self.distance = d.clamp(MIN_DISTANCE, MAX_DISTANCE);
    }

    /// The camera's axes: right, up, and back (it looks along -back).
    fn axes(&self) -> (Vec3, Vec3, Vec3) {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        let back = Vec3::new(cp.mul_lower(sy), sp, cp.mul_lower(cy));
        let right = Vec3::new(cy, Fx1::ZERO, -sy);
        let up = back.cross(right).lower();
        (right, up, back)
    }

    pub fn eye(&self) -> Vec3 {
        let (_, _, back) = self.axes();
        self.target + back.scale(self.distance)
    }

    /// World to camera space (x right, y up, -z forward), metres.
    pub fn view(&self) -> Mat4x3 {
        let (right, up, back) = self.axes();
        let rot = Mat3::from_rows(right, up, back);
        let eye = self.target + back.scale(self.distance);
        Mat4x3::new(rot, -rot.mul_vec(eye))
    }

    /// The projection matrix in GX command order (row vectors).
    pub fn projection() -> [i32; 16] {
        let (n, f) = (NEAR.raw() as i64, FAR.raw() as i64);
        let a = div_i64(-(f + n) << 12, f - n) as i32;
        let b = div_i64(-2 * f * n, f - n) as i32;
        let (x, y) = (X_SCALE.raw(), Y_SCALE.raw());
        [
            x, 0, 0, 0, //
            0, y, 0, 0, //
            0, 0, a, -4096, //
            0, 0, b, 0,
        ]
    }

    /// Where `p` shows on the top screen, or `None` behind the near plane.
    /// Matches the GX's own mapping to within a pixel (it rounds its way).
    pub fn project(&self, p: Vec3) -> Option<ScreenPoint> {
        Self::project_in(&self.view(), p)
    }

    /// [`Camera::project`] with the view (`Camera::view`) found once, for
    /// many points: the view is two sines and cosines and a matrix, and
    /// finding it again per particle made the stylus's first frame in
    /// scene (a) cost 1.2 ms in DeSmuME.
    pub fn project_in(view: &Mat4x3, p: Vec3) -> Option<ScreenPoint> {
        let v = view.transform_point(p).raw();
        let w = -v[2] as i64;
        if w <= NEAR.raw() as i64 {
            return None;
        }
        let sx = div_i64(X_SCALE.raw() as i64 * v[0] as i64 * 128, w << 12);
        let sy = div_i64(Y_SCALE.raw() as i64 * v[1] as i64 * 96, w << 12);
        Some(ScreenPoint {
            x: (128 + sx).clamp(-10_000, 10_000) as i32,
            y: (96 - sy).clamp(-10_000, 10_000) as i32,
            depth: Fx1::from_raw(w as i32),
        })
    }

    /// The world point under screen pixel (x, y) at `depth` metres in
    /// front of the camera: the inverse of [`Camera::project`].
    pub fn unproject(&self, x: i32, y: i32, depth: Fx1) -> Vec3 {
        let w = depth.raw() as i64;
        let vx = div_i64(((x - 128) as i64 * w) << 12, 128 * X_SCALE.raw() as i64);
        let vy = div_i64(((96 - y) as i64 * w) << 12, 96 * Y_SCALE.raw() as i64);
        let v = Vec3::from_raw(vx as i32, vy as i32, -depth.raw());
        self.view().rigid_inverse().transform_point(v)
    }
}
