//! The demo's live figures in the results mailbox, for the runner and its
//! scene tests: the same records as a bench ROM's (key, value, decimals),
//! rewritten every frame. Keys are fixed at start-up, values change.

use mailbox::Mailbox;

/// Each live figure's slot (its index in the mailbox's bench records).
#[derive(Clone, Copy)]
#[repr(usize)]
pub enum Live {
    Scene,
    ScenePending,
    Ragdolls,
    RainFull,
    PolysSubmitted,
    PolysStored,
    PolysMaxSubmitted,
    PolysMaxStored,
    PolysRefused,
    Paused,
    DrawMode,
    GravityMode,
    GravityStrength,
    Damping,
    BusyUs,
    TouchDown,
    TouchX,
    TouchY,
    TouchCalibration,
    Arm7Updates,
    ExtKeys,
    GrabParticle,
    GrabScreenX,
    GrabScreenY,
    Shots,
    GxErrors,
    ProbeX,
    ProbeY,
    Bodies,
    RowsDropped,
    CamYaw,
    CamPitch,
    CamDistance,
    GrabBody,
    BodyProbeX,
    BodyProbeY,
    MineFlips,
    IdleUs,
    Vblanks,
    VertsMaxStored,
    GxUnderflows,
    PoweredLod,
    ExitPath,
    LidSleeps,
    DsiMode,
}

const KEYS: [&str; 45] = [
    "scene",
    "scene.pending",
    "ragdolls",
    "rain.full",
    "polys.submitted",
    "polys.stored",
    "polys.max_submitted",
    "polys.max_stored",
    "polys.refused",
    "paused",
    "draw_mode",
    "gravity.mode",
    "gravity.strength",
    "damping",
    "frame.busy_us",
    "touch.down",
    "touch.x",
    "touch.y",
    "touch.calibration",
    "arm7.updates",
    "arm7.ext_keys",
    "grab.particle",
    "grab.screen_x",
    "grab.screen_y",
    "stylus.shots",
    "gx.errors",
    "probe.screen_x",
    "probe.screen_y",
    "bodies",
    "rigid.rows_dropped",
    "camera.yaw",
    "camera.pitch",
    "camera.distance",
    "grab.body",
    "body_probe.screen_x",
    "body_probe.screen_y",
    "mine.flips",
    "frame.idle_us",
    "irq.vblanks",
    "verts.max_stored",
    "gx.underflows",
    "powered.lod",
    "exit.path",
    "lid.sleeps",
    "dsi_mode",
];

/// Writes the keys and zero values, and publishes the count.
pub fn init(mb: &mut Mailbox) {
    for (rec, key) in mb.bench.iter_mut().zip(KEYS) {
        mailbox::write_str(&mut rec.key, key);
        rec.value = 0;
        rec.decimals = 0;
    }
    mb.header.bench_count = KEYS.len() as u32;
}

pub fn set(mb: &mut Mailbox, slot: Live, value: i32) {
    let rec = &mut mb.bench[slot as usize];
    rec.value = value;
    rec.decimals = 0;
}

/// An FX1 value with 3 decimals.
pub fn set_fx(mb: &mut Mailbox, slot: Live, value: dsphys::fx::Fx1) {
    let rec = &mut mb.bench[slot as usize];
    rec.value = ((value.raw() as i64 * 1000 + 2048) >> 12) as i32;
    rec.decimals = 3;
}
