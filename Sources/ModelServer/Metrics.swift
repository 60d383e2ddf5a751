import Foundation
import Synchronization

/// The server's Prometheus metrics, rendered in the text exposition format.
final class Metrics: Sendable {
    /// Histogram bucket bounds in seconds.
    static let buckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Histogram {
        var counts = [Int](repeating: 0, count: Metrics.buckets.count)
        var sum = 0.0
        var count = 0

        mutating func observe(_ seconds: Double) {
            for (index, bound) in Metrics.buckets.enumerated() where seconds <= bound { counts[index] += 1 }
            sum += seconds
            count += 1
        }
    }

    private struct State {
        var requests: [String: Int] = [:]  // "route\tstatus"
        var latency: [String: Histogram] = [:]  // by route
        var inference: [String: Histogram] = [:]  // by model
        var inFlight = 0
    }

    private let state = Mutex(State())

    /// Inference requests admitted and not finished.
    var inFlight: Int { state.withLock { $0.inFlight } }

    /// Takes a slot of the in-flight limit; false when `limit` are taken.
    func admit(limit: Int) -> Bool {
        state.withLock { state in
            guard state.inFlight < limit else { return false }
            state.inFlight += 1
            return true
        }
    }

    func release() { state.withLock { $0.inFlight -= 1 } }

    func recordRequest(route: String, status: Int, seconds: Double) {
        state.withLock { state in
            state.requests["\(route)\t\(status)", default: 0] += 1
            state.latency[route, default: Histogram()].observe(seconds)
        }
    }

    func recordInference(model: String, seconds: Double) {
        state.withLock { $0.inference[model, default: Histogram()].observe(seconds) }
    }

    /// The exposition text; `waiting` gives each model's requests waiting for a classifier.
    func render(waiting: [(model: String, count: Int)], connections: ConnectionStats) -> String {
        let state = state.withLock { $0 }
        var lines = [
            "# HELP vision_tasks_requests_total HTTP requests by route and status.",
            "# TYPE vision_tasks_requests_total counter",
        ]
        for key in state.requests.keys.sorted() {
            let parts = key.split(separator: "\t")
            lines.append("vision_tasks_requests_total{route=\"\(parts[0])\",status=\"\(parts[1])\"} \(state.requests[key]!)")
        }
        lines += histogram("vision_tasks_request_duration_seconds", "Request latency by route.", "route", state.latency)
        lines += histogram(
            "vision_tasks_inference_duration_seconds", "Classification time per request by model.", "model", state.inference)
        lines += [
            "# HELP vision_tasks_requests_in_flight Inference requests received, and queued or being classified.",
            "# TYPE vision_tasks_requests_in_flight gauge", "vision_tasks_requests_in_flight \(state.inFlight)",
            "# HELP vision_tasks_queue_waiting Requests waiting for a classifier, by model.",
            "# TYPE vision_tasks_queue_waiting gauge",
        ]
        lines += waiting.map { "vision_tasks_queue_waiting{model=\"\(escaped($0.model))\"} \($0.count)" }
        lines += [
            "# HELP vision_tasks_connections_open Open connections.", "# TYPE vision_tasks_connections_open gauge",
            "vision_tasks_connections_open \(connections.open)",
            "# HELP vision_tasks_request_body_bytes Bytes of request bodies held by the requests in progress.",
            "# TYPE vision_tasks_request_body_bytes gauge", "vision_tasks_request_body_bytes \(connections.bodyBytes)",
            "# HELP vision_tasks_connections_late_head_total Connections closed because a request head was not in "
                + "within --idle-timeout.",
            "# TYPE vision_tasks_connections_late_head_total counter",
            "vision_tasks_connections_late_head_total \(connections.lateHeads)",
            "# HELP vision_tasks_connections_slow_body_total Connections closed because a request body was not in by "
                + "the time --min-body-rate sets (408 when a byte of it arrives late, closed when none does).",
            "# TYPE vision_tasks_connections_slow_body_total counter",
            "vision_tasks_connections_slow_body_total \(connections.slowBodies)",
            "# HELP vision_tasks_connections_reserve_refused_total Requests other than health probes refused (503) on "
                + "the connections kept for probes.",
            "# TYPE vision_tasks_connections_reserve_refused_total counter",
            "vision_tasks_connections_reserve_refused_total \(connections.refusedOnReserve)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    private func histogram(_ name: String, _ help: String, _ label: String, _ values: [String: Histogram]) -> [String] {
        var lines = ["# HELP \(name) \(help)", "# TYPE \(name) histogram"]
        for key in values.keys.sorted() {
            let histogram = values[key]!
            let tag = "\(label)=\"\(escaped(key))\""
            for (index, bound) in Self.buckets.enumerated() {
                lines.append("\(name)_bucket{\(tag),le=\"\(bound)\"} \(histogram.counts[index])")
            }
            lines.append("\(name)_bucket{\(tag),le=\"+Inf\"} \(histogram.count)")
            lines.append("\(name)_sum{\(tag)} \(histogram.sum)")
            lines.append("\(name)_count{\(tag)} \(histogram.count)")
        }
        return lines
    }

    private func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
