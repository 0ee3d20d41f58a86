//! A worker's answers to the calls of a cluster's front (`judge api --nats`): the service's own
//! routes, one set per front's caps and workspace, fed each call as the HTTP request it came
//! as. So a request answered through the cluster is answered by the same code as on one machine.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::http::{header, StatusCode};
use axum::Router;
use futures_util::stream::BoxStream;
use futures_util::StreamExt;
use tower::ServiceExt;

use judge_core::workspace::Workspace;

use super::forward::Caps;

use super::metrics::{Facts, FACTS, OUTCOME};
use super::pool::MakeJudge;
use super::Settings;
use crate::serve::Token;

/// The most sets of routes a worker keeps (each with its judges): fronts with other caps or
/// other workspace problems make more.
const KEPT: usize = 8;
/// Requests a worker's routes take beside those running: a worker takes a call only when a
/// slot is free, but a batch is many requests.
const QUEUE: usize = 4096;

/// Makes the judges of a workspace (the binary's: its runners, its settings).
pub type MakeJudges = Arc<dyn Fn(Workspace) -> MakeJudge + Send + Sync>;

/// A request handed to this worker by a front: as it came, with the front's caps, and the
/// folder of the front's workspace problems it names.
pub struct Request {
    pub method: String,
    pub path: String,
    pub body: Vec<u8>,
    pub caps: Caps,
    pub workspace: Option<PathBuf>,
}

/// The answer: its head, and its body as it is made.
pub struct Answer {
    pub status: u16,
    pub content_type: String,
    /// How the request ended, as the service counts it.
    pub outcome: String,
    pub body: BoxStream<'static, Result<Vec<u8>, String>>,
    /// What the request's programs did, for the front's figures ([`Answer::facts`]): complete
    /// once the body is sent.
    facts: Arc<Mutex<Facts>>,
}

impl Answer {
    /// What the request's programs did, as the front reads it ([`super::forward`]): to be taken
    /// once the body is sent.
    pub fn facts(&self) -> impl FnOnce() -> Vec<u8> + Send + 'static {
        let facts = self.facts.clone();
        move || {
            let facts = facts.lock().map(|f| f.clone()).unwrap_or_default();
            serde_json::to_vec(&facts).unwrap_or_default()
        }
    }
}

pub struct Local {
    /// Programs run at once by each set of routes: the worker's slots.
    jobs: usize,
    /// Where the calls' workspaces keep their state.
    dir: PathBuf,
    make: MakeJudges,
    /// What the calls carry to the routes: the routes are nobody else's.
    token: String,
    routers: Mutex<HashMap<(Caps, Option<PathBuf>), Router>>,
}

impl Local {
    pub fn new(jobs: usize, dir: &Path, make: MakeJudges) -> std::io::Result<Local> {
        let token = crate::serve::guard::Token::generate()?;
        Ok(Local {
            jobs: jobs.max(1),
            dir: dir.to_path_buf(),
            make,
            token: token.as_str().to_string(),
            routers: Mutex::new(HashMap::new()),
        })
    }

    /// Answers `request` with the service's own routes.
    pub async fn answer(&self, request: Request) -> Answer {
        let router = match self.router(&request) {
            Ok(router) => router,
            Err(why) => return refused(StatusCode::INTERNAL_SERVER_ERROR, why),
        };
        let http = axum::http::Request::builder()
            .method(request.method.as_str())
            .uri(request.path.as_str())
            .header(header::AUTHORIZATION, format!("Bearer {}", self.token))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(request.body));
        let http = match http {
            Ok(http) => http,
            Err(e) => return refused(StatusCode::BAD_REQUEST, format!("the call: {e}")),
        };
        let facts = Arc::new(Mutex::new(Facts::default()));
        let asked = async move {
            let response = router.oneshot(http).await;
            (response, OUTCOME.with(|o| o.borrow().clone()))
        };
        let (response, outcome) = OUTCOME
            .scope(RefCell::new(None), FACTS.scope(facts.clone(), asked))
            .await;
        let Ok(response) = response;
        let status = response.status();
        let content_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("application/json")
            .to_string();
        let body = response
            .into_body()
            .into_data_stream()
            .map(|chunk| chunk.map(|b| b.to_vec()).map_err(|e| e.to_string()))
            .boxed();
        Answer {
            status: status.as_u16(),
            content_type,
            outcome: outcome.unwrap_or_else(|| outcome_of(status).to_string()),
            body,
            facts,
        }
    }

    /// The routes for the call's caps and workspace, made the first time.
    fn router(&self, request: &Request) -> Result<Router, String> {
        let key = (request.caps, request.workspace.clone());
        let mut routers = self
            .routers
            .lock()
            .map_err(|_| "a worker's routes failed")?;
        if let Some(router) = routers.get(&key) {
            return Ok(router.clone());
        }
        let workspace = self.workspace(request.workspace.as_deref())?;
        let settings = Settings {
            bound: std::net::Ipv4Addr::LOCALHOST.into(),
            jobs: self.jobs,
            queue: QUEUE,
            token: Some(Token::given(self.token.clone())),
            max_time: request.caps.max_time,
            max_memory: request.caps.max_memory,
            output_limit: request.caps.output_limit,
        };
        let router = super::router(settings, 0, (self.make)(workspace));
        if routers.len() >= KEPT {
            // Those answering now keep theirs; the next calls make them again.
            routers.clear();
        }
        routers.insert(key, router.clone());
        Ok(router)
    }

    /// A call's workspace: its bundle of the front's problems, or a bare one.
    fn workspace(&self, bundle: Option<&Path>) -> Result<Workspace, String> {
        let state = self.dir.join("state");
        match bundle {
            Some(dir) => {
                let name = dir.file_name().unwrap_or_default();
                Workspace::at(dir)
                    .map(|ws| ws.with_state(&state.join(name)))
                    .map_err(|e| e.to_string())
            }
            None => {
                let bare = self.dir.join("service");
                std::fs::create_dir_all(&bare).map_err(|e| format!("{}: {e}", bare.display()))?;
                Ok(Workspace::loose(&bare).with_state(&state.join("service")))
            }
        }
    }
}

/// An answer the routes did not make: `{"message": ...}`, as the service's refusals are.
fn refused(status: StatusCode, why: String) -> Answer {
    let body = serde_json::to_vec(&serde_json::json!({ "message": why })).unwrap_or_default();
    Answer {
        status: status.as_u16(),
        content_type: "application/json".into(),
        outcome: outcome_of(status).into(),
        body: futures_util::stream::iter([Ok(body)]).boxed(),
        facts: Arc::default(),
    }
}

/// The outcome counted for an answer that did not say its own.
fn outcome_of(status: StatusCode) -> &'static str {
    match status.as_u16() {
        200..=299 => "ok",
        429 => "busy",
        400..=499 => "bad_request",
        _ => "error",
    }
}
