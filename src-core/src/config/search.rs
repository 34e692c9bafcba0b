//! Search ranking settings (`[search]` in a store's `haema.toml`).

use serde::{Deserialize, Serialize};

use super::registry::origin;
use crate::error::{Error, Result};

/// How search ranks what it finds, beyond how well it matches.
///
/// ```
/// let settings: haema_core::Settings = toml::from_str("[search]\naccess_weight = 0.5").unwrap();
/// assert_eq!(settings.search.access_weight, 0.5);
/// assert!(haema_core::Settings::default().search.access_weight == 0.0); // off by default
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchSettings {
    /// How much being returned often before (by search or recall) lifts a memory, from 0
    /// (off, the default) to 1.
    pub access_weight: f64,
}

impl SearchSettings {
    /// Checks the weight is a number from 0 to 1.
    pub(super) fn validate(&self) -> Result<()> {
        if (0.0..=1.0).contains(&self.access_weight) {
            Ok(())
        } else {
            Err(Error::Config(format!(
                "search access_weight must be a number from 0 to 1 ({})",
                origin("search.access_weight")
            )))
        }
    }
}
