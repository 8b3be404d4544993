//! Swept spheres against a k-d tree of triangles, in tracked FX powers (issue 4).
