import Foundation
import ImageTasks
import ServedModels
import TasksCommon

extension RequestHandler {
    /// `GET /v1/models/NAME`: `{"name", "kind", "task", "summary"}`, the summary (`ModelSummary`)
    /// null for a labeler.
    func details(_ pool: ModelPool) throws(HTTPError) -> HTTPResponse {
        let summary = try withInstance(of: pool) { instance throws(HTTPError) in
            do throws(TasksError) {
                return try instance.summary()
            } catch {
                throw HTTPError(500, error.recordMessage)
            }
        }
        return try .json(ModelDetailsAnswer(name: pool.name, kind: pool.kind, task: pool.kind.verb, summary: summary))
    }
}
