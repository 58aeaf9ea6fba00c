//! The router: the page's assets and the stateless JSON API over the session model.

use axum::Router;
use axum::body::Bytes;
use axum::extract::Request;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Query};
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use bloomproof_session::{
    DraftField, IMPORT_MAX_BYTES, ImportError, Op, SaveOutcome, Session, SessionError, Text, View,
    save_local,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::assets;
use crate::object::Object;
use crate::series::series;
use crate::share::{SharedFilter, decode_fragment, encode_fragment};

/// Largest request body of the JSON calls other than import, in bytes: 8 MiB.
///
/// A session travels as its export text inside a JSON string, where escaping
/// can double it (an export is at most 2 MiB), next to the operations or a
/// shared fragment.
pub const APPLY_BODY_LIMIT: usize = 4 * IMPORT_MAX_BYTES;

/// The body of every error answer: `{"error": {"kind": ..., "message": ...}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// What went wrong.
    pub error: ErrorDetail,
}

/// One error.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorDetail {
    /// A stable snake_case kind: the session model's
    /// [`ErrorKind`](bloomproof_session::ErrorKind) names (`empty_string`,
    /// `syntax`, `invalid`, `too_large`, ...) or one of the request kinds
    /// `malformed_json`, `invalid_request`, `not_found`, `method_not_allowed`,
    /// `internal`.
    pub kind: String,
    /// A sentence for a person.
    pub message: String,
    /// For `ops` lists: the index of the rejected operation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub op_index: Option<usize>,
}

/// An error answer: a status and its [`ErrorDetail`].
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    detail: ErrorDetail,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, kind: &str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            detail: ErrorDetail {
                kind: kind.to_owned(),
                message: message.into(),
                op_index: None,
            },
        }
    }

    /// An operation the session rules reject.
    fn rule(error: &SessionError, op_index: Option<usize>) -> Self {
        let mut this = ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            error.kind().as_str(),
            error.to_string(),
        );
        this.detail.op_index = op_index;
        this
    }

    /// A file (import) the session rules reject.
    fn file(error: &ImportError) -> Self {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            error.kind().as_str(),
            error.to_string(),
        )
    }

    /// A `session` field that is not a valid session.
    fn session(error: &ImportError) -> Self {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            error.kind().as_str(),
            format!("the session sent is not a valid session: {error}"),
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(ErrorBody { error: self.detail })).into_response()
    }
}

type ApiResult<T> = Result<axum::Json<T>, ApiError>;

/// The page and the API, with security headers on every answer.
pub fn router() -> Router {
    let api = Router::new()
        .route(
            "/api/apply",
            post(apply).layer(DefaultBodyLimit::max(APPLY_BODY_LIMIT)),
        )
        .route(
            "/api/import",
            post(import)
                .layer(DefaultBodyLimit::max(IMPORT_MAX_BYTES))
                .layer(axum::middleware::from_fn(declared_import_size)),
        )
        .route(
            "/api/save",
            post(save).layer(DefaultBodyLimit::max(APPLY_BODY_LIMIT)),
        )
        .route("/api/estimates", get(estimates))
        .route(
            "/api/share",
            post(share).layer(DefaultBodyLimit::max(APPLY_BODY_LIMIT)),
        )
        .route(
            "/api/restore",
            post(restore).layer(DefaultBodyLimit::max(APPLY_BODY_LIMIT)),
        );
    Router::new()
        .route("/", get(assets::index))
        .route("/index.html", get(assets::index))
        .route("/assets/app.js", get(assets::script))
        .route("/assets/style.css", get(assets::style))
        .merge(api)
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::map_response(security_headers))
}

pub(crate) async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
             connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        ),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

async fn not_found(uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        format!("no page or call at {}", uri.path()),
    )
}

async fn method_not_allowed(uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!(
            "{} does not take this method (the API calls are POST, except GET /api/estimates)",
            uri.path()
        ),
    )
}

/// The 413 answer for a body over its call's limit.
pub(crate) fn too_large(what: &str, limit: usize) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "too_large",
        format!("{what} is over the {limit}-byte limit of this call; it was not parsed"),
    )
}

/// The body, or the error for a body that could not be read (413 over the limit).
fn body_bytes(
    body: Result<Bytes, BytesRejection>,
    what: &str,
    limit: usize,
) -> Result<Bytes, ApiError> {
    body.map_err(|rejection| {
        let status = rejection.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            too_large(what, limit)
        } else {
            ApiError::new(status, "invalid_request", rejection.body_text())
        }
    })
}

/// Parses a JSON request body, which must be an object, naming the place of a
/// shape error (an array where an object is expected is one).
fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner();
        match inner.classify() {
            serde_json::error::Category::Syntax
            | serde_json::error::Category::Eof
            | serde_json::error::Category::Io => ApiError::new(
                StatusCode::BAD_REQUEST,
                "malformed_json",
                format!("the request body is not valid JSON: {inner}"),
            ),
            serde_json::error::Category::Data => ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                if path == "." {
                    format!("the request body is not of the expected shape: {inner}")
                } else {
                    format!("the request is not of the expected shape at {path}: {inner}")
                },
            ),
        }
    })?;
    deserializer.end().map_err(|error| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "malformed_json",
            format!("the request body is not valid JSON: {error}"),
        )
    })?;
    let Object(value) = value;
    Ok(value)
}

/// The session a request carries: `null` (or absent) for a new one, its export
/// text, or its export as a JSON object.
fn load_session(value: &serde_json::Value) -> Result<Session, ApiError> {
    match value {
        serde_json::Value::Null => Ok(Session::new()),
        serde_json::Value::String(text) => {
            Session::from_export(text).map_err(|error| ApiError::session(&error))
        }
        object @ serde_json::Value::Object(_) => {
            Session::from_export(&object.to_string()).map_err(|error| ApiError::session(&error))
        }
        _ => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "session must be null (a new session), an export's text, or an export object",
        )),
    }
}

/// Runs blocking work (the exact estimate is a dynamic program) off the async workers.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|error| {
            Err(ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                format!("the computation stopped: {error}"),
            ))
        })
}

/// A session and what the page shows of it.
#[derive(Serialize)]
struct SessionReply {
    /// The export text, to send back with the next call.
    session: String,
    /// The view.
    view: View,
}

impl SessionReply {
    fn of(session: &Session) -> Self {
        SessionReply {
            session: session.export(),
            view: session.view(),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ApplyRequest {
    #[serde(default)]
    session: serde_json::Value,
    #[serde(default)]
    op: Option<Object<Op>>,
    #[serde(default)]
    ops: Option<Vec<Object<Op>>>,
}

/// Applies operations all or nothing: on an error the session sent stays as it was.
fn apply_ops(mut session: Session, ops: &[Op], single: bool) -> Result<SessionReply, ApiError> {
    session.apply_all(ops).map_err(|(index, error)| {
        ApiError::rule(&error, if single { None } else { Some(index) })
    })?;
    Ok(SessionReply::of(&session))
}

async fn apply(body: Result<Bytes, BytesRejection>) -> ApiResult<SessionReply> {
    let bytes = body_bytes(body, "the request", APPLY_BODY_LIMIT)?;
    blocking(move || {
        let request: ApplyRequest = parse_json(&bytes)?;
        let (ops, single) = match (request.op, request.ops) {
            (Some(_), Some(_)) => {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "invalid_request",
                    "give either op or ops, not both",
                ));
            }
            (Some(Object(op)), None) => (vec![op], true),
            (None, Some(ops)) => (ops.into_iter().map(|Object(op)| op).collect(), false),
            (None, None) => (Vec::new(), false),
        };
        let session = load_session(&request.session)?;
        apply_ops(session, &ops, single)
    })
    .await
    .map(axum::Json)
}

pub(crate) fn import_too_large(size: Option<u64>) -> ApiError {
    let size = size
        .map(|bytes| format!(" ({bytes} bytes)"))
        .unwrap_or_default();
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "too_large",
        format!(
            "the file{size} is over the import limit of {IMPORT_MAX_BYTES} bytes (2 MiB); it was not parsed"
        ),
    )
}

/// Refuses an import whose declared length is over the limit before reading it
/// (a body without a declared length is cut at the limit while it is read).
async fn declared_import_size(request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    match declared {
        Some(bytes) if bytes > IMPORT_MAX_BYTES as u64 => {
            import_too_large(Some(bytes)).into_response()
        }
        _ => next.run(request).await,
    }
}

async fn import(body: Result<Bytes, BytesRejection>) -> ApiResult<SessionReply> {
    let bytes = body.map_err(|rejection| {
        let status = rejection.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            import_too_large(None)
        } else {
            ApiError::new(status, "invalid_request", rejection.body_text())
        }
    })?;
    blocking(move || {
        let text = std::str::from_utf8(&bytes).map_err(|error| {
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "syntax",
                format!(
                    "the file is not UTF-8 text (invalid byte at offset {})",
                    error.valid_up_to()
                ),
            )
        })?;
        if text.starts_with('\u{feff}') {
            // SESSION.md, import step 2: strict JSON, no byte-order mark.
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "syntax",
                "the file starts with a byte-order mark (U+FEFF); a session file is JSON text without one",
            ));
        }
        let session = Session::from_export(text).map_err(|error| ApiError::file(&error))?;
        Ok(SessionReply::of(&session))
    })
    .await
    .map(axum::Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SaveRequest {
    state: String,
    #[serde(default)]
    previous: Option<String>,
}

async fn save(body: Result<Bytes, BytesRejection>) -> ApiResult<SaveOutcome> {
    let bytes = body_bytes(body, "the request", APPLY_BODY_LIMIT)?;
    let request: SaveRequest = parse_json(&bytes)?;
    Ok(axum::Json(save_local(
        &request.state,
        request.previous.as_deref(),
    )))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EstimatesQuery {
    m: u32,
    k: u32,
    #[serde(default)]
    n: Option<u32>,
    #[serde(default)]
    n_max: Option<u32>,
    #[serde(default)]
    points: Option<u32>,
}

async fn estimates(
    query: Result<Query<EstimatesQuery>, QueryRejection>,
) -> ApiResult<crate::series::Series> {
    let Query(query) = query.map_err(|rejection| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            format!(
                "{} (expected ?m=<bits>&k=<hashes>, optional &n=, &n_max=, &points=)",
                rejection.body_text()
            ),
        )
    })?;
    blocking(move || Ok(series(query.m, query.k, query.n, query.n_max, query.points)))
        .await
        .map(axum::Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShareRequest {
    #[serde(default)]
    session: serde_json::Value,
}

#[derive(Serialize)]
struct ShareReply {
    fragment: String,
}

async fn share(body: Result<Bytes, BytesRejection>) -> ApiResult<ShareReply> {
    let bytes = body_bytes(body, "the request", APPLY_BODY_LIMIT)?;
    blocking(move || {
        let request: ShareRequest = parse_json(&bytes)?;
        let session = load_session(&request.session)?;
        let Some(params) = session.params() else {
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "no_active_filter",
                "there is no active filter to share: create one first (a link carries m, k and the entries)",
            ));
        };
        let shared = SharedFilter {
            m: u32::from(params.m()),
            k: u32::from(params.k()),
            entries: session.entries().iter().map(|units| Text(units.clone())).collect(),
        };
        Ok(ShareReply {
            fragment: encode_fragment(&shared),
        })
    })
    .await
    .map(axum::Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RestoreRequest {
    #[serde(default)]
    session: serde_json::Value,
    fragment: String,
}

async fn restore(body: Result<Bytes, BytesRejection>) -> ApiResult<SessionReply> {
    let bytes = body_bytes(body, "the request", APPLY_BODY_LIMIT)?;
    blocking(move || {
        let request: RestoreRequest = parse_json(&bytes)?;
        let session = load_session(&request.session)?;
        let shared = decode_fragment(&request.fragment).map_err(|message| {
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid",
                format!("the shared link cannot be read: {message}"),
            )
        })?;
        let mut ops = vec![
            Op::SetDraft {
                field: DraftField::M,
                value: shared.m.to_string(),
            },
            Op::SetDraft {
                field: DraftField::K,
                value: shared.k.to_string(),
            },
            Op::Create,
        ];
        ops.extend(shared.entries.into_iter().map(|value| Op::Insert { value }));
        let mut next = session;
        next.apply_all(&ops).map_err(|(index, error)| {
            let mut api = ApiError::rule(&error, None);
            api.detail.message = match index.checked_sub(3) {
                Some(entry) => format!("the shared link's entry {entry} is rejected: {error}"),
                None => format!("the shared link's parameters are rejected: {error}"),
            };
            api
        })?;
        Ok(SessionReply::of(&next))
    })
    .await
    .map(axum::Json)
}
