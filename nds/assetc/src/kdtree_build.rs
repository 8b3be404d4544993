//! Builds the flat k-d tree from triangles (collision helper).
