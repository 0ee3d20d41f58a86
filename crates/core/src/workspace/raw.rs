//! `problem.toml` as written: its keys, each with where it is in the file, before anything is
//! checked or resolved.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::checker::{CheckerKey, Protocol};
use crate::check::Order;
use crate::lang::RustSettings;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawProblem {
    pub(super) title: String,
    pub(super) time_limit: toml::Spanned<String>,
    pub(super) memory_limit: toml::Spanned<String>,
    pub(super) output_limit: Option<toml::Spanned<String>>,
    pub(super) checker: Option<toml::Spanned<CheckerKey>>,
    pub(super) case_insensitive: Option<toml::Spanned<bool>>,
    pub(super) float_absolute: Option<toml::Spanned<f64>>,
    pub(super) float_relative: Option<toml::Spanned<f64>>,
    pub(super) checker_program: Option<toml::Spanned<String>>,
    pub(super) checker_time_limit: Option<toml::Spanned<String>>,
    pub(super) checker_memory_limit: Option<toml::Spanned<String>>,
    pub(super) checker_protocol: Option<toml::Spanned<Protocol>>,
    pub(super) validator_flags: Option<toml::Spanned<String>>,
    #[serde(default)]
    pub(super) samples: Vec<String>,
    #[serde(default)]
    pub(super) expected: BTreeMap<String, toml::Spanned<String>>,
    pub(super) generator: Option<toml::Spanned<String>>,
    pub(super) input_validator: Option<toml::Spanned<String>>,
    pub(super) rust: Option<toml::Spanned<RustSettings>>,
    #[serde(default)]
    pub(super) language_time: BTreeMap<String, toml::Spanned<String>>,
    pub(super) url: Option<String>,
    pub(super) input_file: Option<toml::Spanned<String>>,
    pub(super) output_file: Option<toml::Spanned<String>>,
    pub(super) interactor: Option<toml::Spanned<String>>,
    pub(super) interactor_protocol: Option<toml::Spanned<Protocol>>,
    pub(super) interactor_time_limit: Option<toml::Spanned<String>>,
    pub(super) interactor_memory_limit: Option<toml::Spanned<String>>,
    pub(super) function: Option<RawFunction>,
}

/// `[function]`: the declared function, LeetCode's form.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFunction {
    pub(super) name: toml::Spanned<String>,
    pub(super) params: toml::Spanned<Vec<toml::Spanned<String>>>,
    pub(super) returns: toml::Spanned<String>,
    pub(super) order: Option<toml::Spanned<RawOrder>>,
}

impl RawFunction {
    /// `order`, as the json checker takes it.
    pub(super) fn order(&self) -> Order {
        match self.order.as_ref().map(|o| *o.get_ref()) {
            Some(RawOrder::Any) => Order::Any,
            Some(RawOrder::Given) | None => Order::AsGiven,
        }
    }
}

/// `order` in `[function]`.
#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub(super) enum RawOrder {
    Given,
    Any,
}

/// The 1-based line of byte `offset` in `text`.
pub(super) fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}
