//! Wavefront OBJ collision meshes (collision helper).
