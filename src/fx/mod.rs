//! FX32 fixed point with the power of FX tracked in the type system (issue 3).
