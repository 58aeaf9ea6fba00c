//! The router: the page's static files ([`crate::site::FILES`]) for `GET` and
//! `HEAD`, and a JSON error for anything else.

use axum::Router;
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use bloomproof_wire::adapter::ErrorBody;
use bloomproof_wire::explorer::ErrorAnswer;

use crate::site;

/// An error answer: a status and its [`ErrorBody`].
#[derive(Debug)]
pub(crate) struct PageError {
    status: StatusCode,
    detail: ErrorBody,
}

impl PageError {
    pub(crate) fn new(status: StatusCode, kind: &str, message: impl Into<String>) -> Self {
        PageError {
            status,
            detail: ErrorBody {
                field: None,
                kind: kind.to_owned(),
                message: message.into(),
            },
        }
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(ErrorAnswer { error: self.detail })).into_response()
    }
}

/// The page's files (`GET` and `HEAD`), with security headers on every answer.
pub fn router() -> Router {
    Router::new()
        .fallback(serve_file)
        .layer(axum::middleware::map_response(security_headers))
}

async fn serve_file(method: Method, uri: Uri) -> Response {
    if method == Method::CONNECT {
        let mut response = PageError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            format!(
                "CONNECT (a tunnel to {uri}) is refused: this server is not a proxy; it answers \
                 only GET and HEAD of the explorer page's files"
            ),
        )
        .into_response();
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return response;
    }
    let Some(file) = site::file(uri.path()) else {
        return PageError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no page or file at {}", uri.path()),
        )
        .into_response();
    };
    if method != Method::GET && method != Method::HEAD {
        let mut response = PageError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            format!(
                "{} is a static file: only GET and HEAD are answered",
                uri.path()
            ),
        )
        .into_response();
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return response;
    }
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(file.content_type),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        file.text,
    )
        .into_response()
}

pub(crate) async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
             connect-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
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
