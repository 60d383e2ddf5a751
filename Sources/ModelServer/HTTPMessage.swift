import CMicroHTTPD
import Foundation
import ImageTasks
import TasksCommon

/// A request as the server handles it, once its body (or its multipart files) is read.
struct HTTPRequest: Sendable {
    /// The request head: method, path, query and headers.
    let head: RequestHead
    /// The raw body (empty for a multipart request, whose parts are in `files`).
    var body: Data
    /// The files of a `multipart/form-data` body, in the order they came.
    var files: [FormFile]
}

/// What the server knows of a request when its headers are in.
struct RequestHead: Sendable {
    let method: String
    /// The path without the query string.
    let path: String
    /// Query arguments, decoded by libmicrohttpd.
    let query: [String: String]
    /// Header values by lower-cased name.
    let headers: [String: String]
    /// The client's numeric address.
    let client: String

    /// The value of a header, by case-insensitive name.
    func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// One file of a `multipart/form-data` body.
struct FormFile: Sendable {
    /// The form field's name.
    let field: String
    /// The file name the client gave, if any.
    let filename: String?
    var data: Data
}

/// A response: status, headers and body.
struct HTTPResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: Data

    init(status: Int, contentType: String, body: Data, headers: [(name: String, value: String)] = []) {
        self.status = status
        self.headers = [("Content-Type", contentType)] + headers
        self.body = body
    }

    /// A JSON body, written by the server's one encoder (`JSONText`: keys sorted, slashes unescaped).
    /// - Throws: `HTTPError` 500 when `value` cannot be written as JSON (a non-finite number,
    ///   say): a response is never an empty or partial object.
    static func json(_ value: some Encodable, status: Int = 200) throws(HTTPError) -> HTTPResponse {
        do throws(TasksError) {
            return HTTPResponse(status: status, contentType: "application/json", body: try JSONText.data(value))
        } catch {
            throw HTTPError(
                500,
                "The response could not be written as JSON: it holds a value JSON cannot represent (such as a non-finite number)."
            )
        }
    }

    /// The status line, headers (with Content-Length) and body as HTTP/1.1 sends them, for an
    /// answer written to the socket directly.
    var wireBytes: Data {
        let reason = MHD_get_reason_phrase_for(UInt32(status)).map { String(cString: $0) } ?? ""
        var head = "HTTP/1.1 \(status) \(reason)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        return Data(head.utf8) + body
    }

    /// An empty 200 response.
    static let ok = HTTPResponse(status: 200, contentType: "text/plain", body: Data())
}

/// A request that fails with an HTTP status and a message; rendered as `{"error": message}`.
struct HTTPError: Error, Sendable {
    let status: Int
    let message: String
    /// Extra response headers (Retry-After, WWW-Authenticate).
    var headers: [(name: String, value: String)] = []

    init(_ status: Int, _ message: String, headers: [(name: String, value: String)] = []) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    /// `{"error": message}`. A string always encodes; were it ever to fail, the message goes as
    /// plain text rather than as an empty object.
    var response: HTTPResponse {
        var response =
            (try? HTTPResponse.json(["error": message], status: status))
            ?? HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Data(message.utf8))
        response.headers += headers
        return response
    }

    /// The answer to a task's error: its status (`status(for:)`) and its message, after `prefix`
    /// (which image it is about) when given.
    init(_ error: TasksError, prefix: String? = nil) {
        self.init(Self.status(for: error), prefix.map { "\($0): \(error.recordMessage)" } ?? error.recordMessage)
    }

    /// What `body` returns, its `TasksError` answered as `init(_:prefix:)` does.
    static func mapping<Value>(_ body: () throws(TasksError) -> Value) throws(HTTPError) -> Value {
        do throws(TasksError) {
            return try body()
        } catch {
            throw HTTPError(error)
        }
    }

    /// The HTTP status of a task's error: 422 for an output the model cannot give as a finite
    /// number (outOfRange, the command line's OUT_OF_RANGE: the same image would fail again on
    /// any replica, so not a 5xx that load balancers retry), 500 for the server's own failures
    /// (internal, unknown), 400 for the rest (an image that cannot be decoded, an option the
    /// model refuses).
    static func status(for error: TasksError) -> Int {
        switch error.code {
        case .outOfRangeError: 422
        case .internalError, .unknownError: 500
        default: 400
        }
    }

    static func badRequest(_ message: String) -> HTTPError { HTTPError(400, message) }
}
