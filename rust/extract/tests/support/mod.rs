//! Code shared by the integration tests (and, by path, the fuzz targets).

pub mod tree_dump;
