//! Code shared by the integration tests (and, by path, the fuzz targets). Each test uses
//! part of it, hence `dead_code` allowed.

#[allow(dead_code)]
pub mod lexer_dump;
#[allow(dead_code)]
pub mod reference;
#[allow(dead_code)]
pub mod tree_dump;
