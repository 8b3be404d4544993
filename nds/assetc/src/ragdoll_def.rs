//! Ragdoll definitions: particles, masses, constraints (Verlet helper).
