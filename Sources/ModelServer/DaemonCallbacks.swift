import CHTTPDaemon
import CMicroHTTPD
import Foundation

// libmicrohttpd's callbacks: C function pointers, so free functions, reaching the daemon's
// state through the context pointer they are given.

private func string(_ pointer: UnsafePointer<CChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
}

/// Collects the name/value pairs of one kind (headers, query arguments) of a connection.
private func values(of connection: OpaquePointer, kind: MHD_ValueKind, lowercasingKeys: Bool) -> [String: String] {
    final class Box { var values: [String: String] = [:]; let lowercasing: Bool; init(_ l: Bool) { lowercasing = l } }
    let box = Box(lowercasingKeys)
    withExtendedLifetime(box) {
        _ = MHD_get_connection_values(
            connection, kind,
            { cls, _, key, value in
                let box = Unmanaged<Box>.fromOpaque(cls!).takeUnretainedValue()
                let name = string(key)
                box.values[box.lowercasing ? name.lowercased() : name] = string(value)
                return .YES
            }, Unmanaged.passUnretained(box).toOpaque())
    }
    return box.values
}

private func queue(
    _ response: HTTPResponse, on connection: OpaquePointer, exchange: HTTPExchange, context: DaemonContext
) -> MHD_Result {
    exchange.status = response.status
    exchange.bytesSent = response.body.count
    let created = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let created else { return .NO }
    defer { MHD_destroy_response(created) }
    for (name, value) in response.headers { _ = MHD_add_response_header(created, name, value) }
    if context.closeConnections.load(ordering: .relaxed) { _ = MHD_add_response_header(created, "Connection", "close") }
    return MHD_queue_response(connection, UInt32(response.status), created)
}

/// The first call builds the exchange and asks for admission; the next ones carry body bytes;
/// the last one (no bytes) answers.
let accessHandler: MHD_AccessHandlerCallback = {
    cls, connection, url, method, _, uploadData, uploadSize, requestPointer in
    guard let cls, let connection, let uploadSize, let requestPointer else { return .NO }
    let context = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()
    guard let stored = requestPointer.pointee else {
        var address = [CChar](repeating: 0, count: 64)
        vt_http_client_address(connection, &address, address.count)
        let head = RequestHead(
            method: string(method), path: string(url),
            query: values(of: connection, kind: .GET_ARGUMENT_KIND, lowercasingKeys: false),
            headers: values(of: connection, kind: .HEADER_KIND, lowercasingKeys: true),
            client: String(decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        let exchange = HTTPExchange(
            head: head, socket: vt_http_connection_socket(connection), connection: DaemonContext.key(connection))
        requestPointer.pointee = Unmanaged.passRetained(exchange).toOpaque()
        context.opened(on: connection)
        let length = head.header("content-length").flatMap { Int($0) }
        switch context.handler.admit(head, bodyLength: length, onReservedConnection: context.isReserved(connection)) {
        case .reject(let response) where sendsBodyUnasked(head, length: length):
            // Answering and closing with the body still coming would reset the connection, and the
            // client, busy sending, would see a broken pipe instead of the answer.
            exchange.answerEarly(response, context: context)
            vt_http_set_timeout(connection, UInt32(HTTPExchange.linger / .seconds(1)))
            return .YES
        case .reject(let response):
            return queue(response, on: connection, exchange: exchange, context: context)
        case .accept(let limit):
            exchange.bodyLimit = limit
            exchange.expectRest(context)
            if head.header("content-type")?.lowercased().hasPrefix("multipart/form-data") == true {
                startMultipart(exchange, connection: connection)
            } else if let length, length <= limit {
                // One allocation of the announced size, not a doubling series up to it.
                exchange.body.reserveCapacity(length)
            }
            return .YES
        }
    }
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(stored).takeUnretainedValue()
    if uploadSize.pointee > 0, let uploadData {
        let progress = exchange.append(uploadData, count: uploadSize.pointee, context: context)
        uploadSize.pointee = 0
        switch progress {
        case .reading: return .YES
        case .lingering:
            // A client that sends nothing more after the answer is not waited for either.
            vt_http_set_timeout(connection, UInt32(HTTPExchange.linger / .seconds(1)))
            return .YES
        case .close: return .NO
        }
    }
    if exchange.answeredEarly != nil { return .NO }
    // The body is in: no deadline while it is answered.
    context.deadlines.requestBegan(on: exchange.connection)
    guard exchange.status == 0 else { return .YES }
    if let failure = exchange.failure {
        return queue(failure.response, on: connection, exchange: exchange, context: context)
    }
    let request = HTTPRequest(head: exchange.head, body: exchange.body, files: exchange.form.files)
    exchange.body = Data()
    exchange.form.removeAll()
    let response = context.handler.respond(to: request)
    return queue(response, on: connection, exchange: exchange, context: context)
}

/// Whether a body follows the head without waiting for `100 Continue` (a client that asked for
/// it sends nothing when the answer comes first).
private func sendsBodyUnasked(_ head: RequestHead, length: Int?) -> Bool {
    let chunked = head.header("transfer-encoding")?.lowercased().contains("chunked") == true
    let waits = head.header("expect")?.lowercased() == "100-continue"
    return (chunked || (length ?? 0) > 0) && !waits
}

private func startMultipart(_ exchange: HTTPExchange, connection: OpaquePointer) {
    exchange.postProcessor = MHD_create_post_processor(
        connection, 64 * 1024,
        { cls, _, key, filename, _, _, data, offset, size in
            let exchange = Unmanaged<HTTPExchange>.fromOpaque(cls!).takeUnretainedValue()
            let bytes = UnsafeRawBufferPointer(start: size > 0 ? UnsafeRawPointer(data) : nil, count: size > 0 ? size : 0)
            exchange.form.receive(
                field: string(key), filename: filename.map { String(cString: $0) }, offset: offset, bytes: bytes)
            return .YES
        }, Unmanaged.passUnretained(exchange).toOpaque())
    if exchange.postProcessor == nil {
        exchange.failure = .badRequest(
            "The multipart/form-data body has no usable boundary (Content-Type: \(exchange.head.header("content-type") ?? "")).")
    }
}

let completedHandler: MHD_RequestCompletedCallback = { cls, connection, requestPointer, _ in
    guard let cls, let connection, let requestPointer, let stored = requestPointer.pointee else { return }
    requestPointer.pointee = nil
    let context = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(stored).takeRetainedValue()
    exchange.drop(context)
    let elapsed = ContinuousClock.now - exchange.started
    let seconds = elapsed / .seconds(1)
    context.handler.finished(
        exchange.head, status: exchange.status, bytes: exchange.bytesSent, seconds: seconds)
    context.closed(on: connection)
}

let connectionHandler: MHD_NotifyConnectionCallback = { cls, connection, _, code in
    guard let cls, let connection else { return }
    let context = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()
    if code == .CONNECTION_NOTIFY_STARTED {
        context.connectionOpened(connection)
    } else {
        context.connectionClosed(connection)
    }
}
