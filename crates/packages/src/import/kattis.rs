//! Kattis/ICPC problem packages, a folder with `problem.yaml` or its `.zip`, imported through
//! [`super::package`].

use std::path::Path;

use super::{Draft, Format};
use crate::error::Result;
use crate::package::archive;

pub(super) struct KattisPackage;

impl Format for KattisPackage {
    fn name(&self) -> &'static str {
        "a Kattis problem package (a folder with problem.yaml, or its .zip)"
    }

    fn detect(&self, path: &Path) -> bool {
        path.join("problem.yaml").is_file()
            || (archive::is_zip(path) && archive::holds(path, "problem.yaml"))
    }

    fn read(&self, path: &Path) -> Result<Vec<Draft>> {
        super::package::read(path)
    }
}
