//! Verlet particles, constraints and ragdolls (issue 4).
