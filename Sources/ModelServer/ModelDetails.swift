import Foundation
import ImageTasks
import TasksCommon

extension RequestHandler {
    /// `GET /v1/models/NAME`: `{"name", "kind", "task", "summary"}`, the summary (`ModelSummary`)
    /// null for a labeler.
    func details(_ pool: ModelPool) throws(HTTPError) -> HTTPResponse {
        let summary = try pool.withInstance(timeout: limits.requestTimeoutSeconds) { instance throws(HTTPError) in
            do throws(TasksError) {
                return try instance.summary()
            } catch {
                throw HTTPError(500, error.recordMessage)
            }
        }
        struct Details: Encodable {
            let name, kind, task: String
            let summary: ModelSummary?
        }
        guard let body = try? JSONEncoder().encode(Details(name: pool.name, kind: pool.kind, task: pool.verb, summary: summary))
        else { throw HTTPError(500, "The model's details could not be written as JSON.") }
        return HTTPResponse(status: 200, contentType: "application/json", body: body)
    }
}
