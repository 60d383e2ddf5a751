import ImageTasks

/// The server's limits; the defaults are the documented ones (README "Serving").
package struct ServerLimits: Sendable {
    /// Request body bytes at most (413 above).
    package var maxBodyBytes = 32 * 1024 * 1024
    /// Images per request at most (400 above).
    package var maxImages = 64
    /// Inference requests admitted at once (received whole, and waiting or classified); further
    /// ones get 503 with Retry-After. Bodies being received take no slot; together they may
    /// hold `maxRequests * maxBodyBytes` bytes (503 beyond).
    package var maxRequests = 64
    /// Seconds a request may wait for a classifier (503 after).
    package var requestTimeoutSeconds = 30.0
    /// Open connections at most for requests; `reservedConnections` more are accepted for
    /// health probes only (other requests on them get 503), so that slow clients holding every
    /// connection do not make the probes fail.
    package var maxConnections = 512
    /// Connections kept for health probes beyond `maxConnections`.
    package var reservedConnections = 16
    /// Seconds a connection may stay idle; also the time within which each request line and
    /// headers must arrive, from the connection's opening or its previous response.
    package var idleTimeoutSeconds = 30
    /// Bytes per second a request body must come at, on average, once 10 seconds have passed
    /// since its head (408 and closed below; checked as bytes arrive); 0: no minimum.
    package var minBodyBytesPerSecond = 16 * 1024
    /// Bytes per connection for the request line and headers.
    package var connectionMemoryBytes = 64 * 1024
    /// Seconds between SIGTERM and closing the listener, during which `/v2/health/ready` answers
    /// 503 while requests are still served, so that a load balancer's health check takes the
    /// server out before it stops accepting (0: stop at once; SIGINT always does).
    package var drainSeconds = 0.0
    /// Video uploads (`POST /v1/models/NAME/classify-video`).
    package var videos = VideoUploadLimits()

    package init() {}
}

/// Everything the server needs to start.
package struct ServerConfiguration: Sendable {
    /// The address to bind (127.0.0.1 by default).
    package var host = "127.0.0.1"
    /// The port; 0 for a free one.
    package var port: UInt16 = 8080
    /// A file whose first line is the bearer token every request but health checks and the
    /// page must carry.
    package var tokenFile: String?
    package var limits = ServerLimits()

    package init() {}
}
