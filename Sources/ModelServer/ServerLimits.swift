import ImageTasks

/// The server's limits; the defaults are the documented ones (README "Serving").
package struct ServerLimits: Sendable {
    /// Request body bytes at most (413 above).
    package var maxBodyBytes = 32 * 1024 * 1024
    /// Images per request at most (400 above).
    package var maxImages = 64
    /// Inference requests admitted at once (received, waiting or classified); further ones
    /// get 503 with Retry-After.
    package var maxRequests = 64
    /// Seconds a request may wait for a classifier (503 after).
    package var requestTimeoutSeconds = 30.0
    /// Open connections at most.
    package var maxConnections = 128
    /// Seconds a connection may stay idle, including a client sending its headers slowly.
    package var idleTimeoutSeconds = 30
    /// Bytes per connection for the request line and headers.
    package var connectionMemoryBytes = 64 * 1024
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

/// A model to serve: its name and its instances (the pool, loaded by the caller; all of one task).
package struct ServedModel: Sendable {
    package var name: String
    package var instances: [any ServedTask]

    package init(name: String, instances: [any ServedTask]) {
        precondition(!instances.isEmpty, "a served model needs an instance")
        self.name = name
        self.instances = instances
    }
}
