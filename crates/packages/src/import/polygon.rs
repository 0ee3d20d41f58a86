//! Polygon packages, a folder with `problem.xml` or its `.zip`, imported through [`super::package`].

use std::path::Path;

use super::{Draft, Format};
use crate::error::Result;
use crate::package::{archive, polygon};

pub(super) struct PolygonPackage;

impl Format for PolygonPackage {
    fn name(&self) -> &'static str {
        "a Polygon package (a folder with problem.xml, or its .zip)"
    }

    fn detect(&self, path: &Path) -> bool {
        polygon::is_polygon(path) || (archive::is_zip(path) && archive::holds(path, "problem.xml"))
    }

    fn read(&self, path: &Path) -> Result<Vec<Draft>> {
        super::package::read(path)
    }
}
