//! The service's caps on what a request asks for: its CPU time and memory within `--max-time`
//! and `--max-memory` (over them: 400, the cap named), and the seconds a client gives.

use std::time::Duration;

use axum::http::StatusCode;

use judge_core::verdict::Limits;

use super::{Refusal, Settings};

/// The CPU time a request gets when it asks for none.
pub(super) const DEFAULT_TIME: Duration = Duration::from_secs(10);

/// The limits a request asks for, within the service's caps: `time` (CPU) and `memory` in
/// bytes, `None` for the defaults.
pub(super) fn limits(
    settings: &Settings,
    time: Option<Duration>,
    memory: Option<u64>,
) -> Result<Limits, Refusal> {
    let time = time.unwrap_or(DEFAULT_TIME.min(settings.max_time));
    if time > settings.max_time {
        return Err(Refusal::new(
            StatusCode::BAD_REQUEST,
            "over_cap",
            format!(
                "the run time asked for ({} s) is over this service's cap of {} s (judge api --max-time)",
                time.as_secs_f64(),
                settings.max_time.as_secs_f64()
            ),
        ));
    }
    let memory = memory.unwrap_or(settings.max_memory);
    if memory > settings.max_memory {
        return Err(Refusal::new(
            StatusCode::BAD_REQUEST,
            "over_cap",
            format!(
                "the memory asked for ({} MiB) is over this service's cap of {} MiB (judge api --max-memory)",
                memory >> 20,
                settings.max_memory >> 20
            ),
        ));
    }
    Ok(Limits::new(time, memory, settings.output_limit))
}

/// The seconds a client gives as `field`: a positive number, else the request is refused.
pub(super) fn seconds(field: &str, s: f64) -> Result<Duration, Refusal> {
    if s.is_finite() && s > 0.0 {
        Ok(Duration::from_secs_f64(s.min(1e6)))
    } else {
        Err(Refusal::new(
            StatusCode::BAD_REQUEST,
            "bad_request",
            format!("`{field}` is {s}: give a positive number of seconds"),
        ))
    }
}
