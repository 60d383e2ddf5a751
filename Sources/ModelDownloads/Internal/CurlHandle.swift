import CCurl
import Foundation

/// The head of a response, as libcurl parsed it.
struct CurlResponseHead {
    /// The HTTP status code.
    let status: Int
    /// The Content-Length, nil when the server sent none.
    let contentLength: Int64?
    /// The `Location` header as the server sent it.
    let location: String?
}

/// The receiving side of a transfer. libcurl calls it from its callbacks, on the thread running
/// `CurlHandle.perform`.
protocol CurlReceiver: AnyObject {
    /// The response's head is complete (interim 1xx responses included); false stops the transfer
    /// before any byte of the body is read.
    func headEnded(_ head: CurlResponseHead) -> Bool
    /// The next piece of the body; false stops the transfer and closes the connection.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// Polled about once a second, more often while data flows; true stops the transfer.
    func shouldStop() -> Bool
}

/// One libcurl easy handle, for one transfer at a time; every libcurl call of this target is in
/// this file.
///
/// libcurl rather than URLSession: swift-corelibs-foundation 6.3.1 reads a body to its end after
/// the delegate refuses it (it ignores the response disposition, and `URLSessionTask.cancel()`
/// waits for the session's work queue, which libcurl's reads of a fast connection keep busy),
/// and every `URLSessionConfiguration` creates the shared URL cache's and cookie store's folders
/// in the user's home. Here a callback that refuses a byte stops the transfer at once.
/// Not `Sendable`: one thread uses it.
final class CurlHandle {
    /// The outcome of `perform`: libcurl's code and its message.
    struct Completion {
        let code: CURLcode
        let message: String

        var succeeded: Bool { code == CURLE_OK }
    }

    /// Seconds after which libcurl itself gives up, as a backstop to the receiver's own checks.
    struct Backstop {
        let connect: Double
        let total: Double
    }

    // curl_global_init is not thread-safe: it runs once, before the first handle.
    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    // +1, ours: cleaned up in deinit.
    private let handle: UnsafeMutableRawPointer
    // Ours: libcurl writes the detailed message of a failure here.
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

    /// Nil when libcurl cannot start (its global init failed, or memory is exhausted).
    init?() {
        guard Self.globalInit == CURLE_OK, let handle = curl_easy_init() else { return nil }
        self.handle = handle
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Runs a GET of `url`, redirects not followed, delivering the response to `receiver`.
    func perform(_ url: URL, receiver: CurlReceiver, backstop: Backstop) -> Completion {
        curl_easy_reset(handle)
        errorBuffer[0] = 0
        let context = CallbackContext(receiver: receiver, handle: handle)
        let userData = Unmanaged.passUnretained(context).toOpaque()
        var code = configure(url, userData: userData, backstop: backstop)
        if code == CURLE_OK {
            code = withExtendedLifetime(context) { curl_easy_perform(handle) }
        }
        let detail = String(cString: errorBuffer)
        return Completion(code: code, message: detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail)
    }

    /// Sets the options of one transfer; the first failing code, or CURLE_OK.
    private func configure(_ url: URL, userData: UnsafeMutableRawPointer, backstop: Backstop) -> CURLcode {
        let settings: [() -> CURLcode] = [
            { vt_curl_set_string(self.handle, CURLOPT_URL, url.absoluteString) },
            { vt_curl_set_string(self.handle, CURLOPT_PROTOCOLS_STR, "http,https") },
            // Threads: no SIGALRM for name resolution timeouts.
            { vt_curl_set_long(self.handle, CURLOPT_NOSIGNAL, 1) },
            { vt_curl_set_long(self.handle, CURLOPT_FOLLOWLOCATION, 0) },
            { vt_curl_set_long(self.handle, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1) },
            { vt_curl_set_long(self.handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(backstop.connect)) },
            { vt_curl_set_long(self.handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(backstop.total)) },
            { vt_curl_set_pointer(self.handle, CURLOPT_ERRORBUFFER, self.errorBuffer) },
            { vt_curl_set_write_function(self.handle, CURLOPT_HEADERFUNCTION, curlHeaderCallback) },
            { vt_curl_set_pointer(self.handle, CURLOPT_HEADERDATA, userData) },
            { vt_curl_set_write_function(self.handle, CURLOPT_WRITEFUNCTION, curlWriteCallback) },
            { vt_curl_set_pointer(self.handle, CURLOPT_WRITEDATA, userData) },
            { vt_curl_set_long(self.handle, CURLOPT_NOPROGRESS, 0) },
            { vt_curl_set_xferinfo_function(self.handle, curlProgressCallback) },
            { vt_curl_set_pointer(self.handle, CURLOPT_XFERINFODATA, userData) },
        ]
        for setting in settings {
            let code = setting()
            if code != CURLE_OK { return code }
        }
        return CURLE_OK
    }

    private static func milliseconds(_ seconds: Double) -> Int {
        Int(min(seconds * 1000, Double(Int32.max)))
    }

    /// The head of the response being received, read when its last header line arrives.
    fileprivate static func head(of handle: UnsafeMutableRawPointer, location: String?) -> CurlResponseHead {
        var status = 0
        vt_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var length: curl_off_t = -1
        vt_curl_get_off(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length)
        return CurlResponseHead(status: status, contentLength: length >= 0 ? Int64(length) : nil, location: location)
    }
}

/// What the C callbacks reach through their user data pointer.
private final class CallbackContext {
    unowned let receiver: CurlReceiver
    let handle: UnsafeMutableRawPointer
    /// The Location header of the response being received.
    var location: String?

    init(receiver: CurlReceiver, handle: UnsafeMutableRawPointer) {
        (self.receiver, self.handle) = (receiver, handle)
    }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> CallbackContext {
        Unmanaged<CallbackContext>.fromOpaque(pointer!).takeUnretainedValue()
    }

    /// One header line, CRLF included; the empty line ends a head.
    func header(_ line: String) -> Bool {
        if line.hasPrefix("HTTP/") {
            location = nil
        } else if line.lowercased().hasPrefix("location:") {
            location = line.dropFirst("location:".count).trimmingCharacters(in: .whitespacesAndNewlines)
        } else if line.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return receiver.headEnded(CurlHandle.head(of: handle, location: location))
        }
        return true
    }
}

// libcurl stops a transfer when a write callback returns another count than it was given, and
// when the progress callback returns non-zero.

private func curlHeaderCallback(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?
) -> Int {
    let length = size * count
    let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    return CallbackContext.from(user).header(line) ? length : 0
}

private func curlWriteCallback(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?
) -> Int {
    let length = size * count
    return CallbackContext.from(user).receiver.receive(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

private func curlProgressCallback(
    _ user: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloaded: curl_off_t, _ uploadTotal: curl_off_t,
    _ uploaded: curl_off_t
) -> Int32 {
    CallbackContext.from(user).receiver.shouldStop() ? 1 : 0
}
