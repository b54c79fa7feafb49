//! The stand-ins' one way to listen: an axum app on a port of 127.0.0.1
//! the system picks free, so two runs on one machine never meet.

/// Serves `app` in the background; returns its base address
/// (`http://127.0.0.1:PORT`).
pub async fn serve(app: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}
