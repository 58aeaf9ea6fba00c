//! The page's files, compiled into the binary.

use axum::http::{HeaderValue, header};
use axum::response::IntoResponse;

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const STYLE_CSS: &str = include_str!("../assets/style.css");

fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        body,
    )
}

pub(crate) async fn index() -> impl IntoResponse {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

pub(crate) async fn script() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", APP_JS)
}

pub(crate) async fn style() -> impl IntoResponse {
    asset("text/css; charset=utf-8", STYLE_CSS)
}
