import TasksCommon
import Testing

/// Expects `body` to throw a `TasksError` with `code` whose message contains every one of
/// `fragments`, and returns the error (nil, after recording an issue, when `body` throws
/// nothing or another kind of error).
///
/// - Parameters:
///   - context: put before each issue's text (a table case's id, say).
///   - body: typed (`throws(TasksError)`) or untyped; what it returns is ignored.
@discardableResult
public func expectTasksError<T>(
    _ code: TasksErrorCode, containing fragments: [String] = [], context: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) -> TasksError? {
    let prefix = context.map { "\($0): " } ?? ""
    do {
        _ = try body()
        Issue.record("\(prefix)expected \(code) containing \(fragments), but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as TasksError {
        #expect(error.code == code, "\(prefix)\(error)", sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(
                error.message.contains(fragment), "\(prefix)\"\(error.message)\" lacks \"\(fragment)\"",
                sourceLocation: sourceLocation)
        }
        return error
    } catch {
        Issue.record("\(prefix)expected a TasksError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// `expectTasksError(_:containing:context:sourceLocation:_:)` with one fragment.
@discardableResult
public func expectTasksError<T>(
    _ code: TasksErrorCode, containing fragment: String, context: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) -> TasksError? {
    expectTasksError(code, containing: [fragment], context: context, sourceLocation: sourceLocation, body)
}

/// Expects `body` to throw a `TasksError` with `code` and exactly `message` (or a message
/// starting with it, with `prefix`), and returns the error (nil, after recording an issue,
/// otherwise).
@discardableResult
public func expectTasksError<T>(
    _ code: TasksErrorCode, message: String, prefix: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) -> TasksError? {
    do {
        _ = try body()
        Issue.record("expected \(code) \"\(message)\", nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as TasksError {
        #expect(error.code == code, sourceLocation: sourceLocation)
        if prefix {
            #expect(error.message.hasPrefix(message), "\(error.message)", sourceLocation: sourceLocation)
        } else {
            #expect(error.message == message, sourceLocation: sourceLocation)
        }
        return error
    } catch {
        Issue.record("expected a TasksError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Expects `timestamps` to be strictly increasing (one issue, at the first pair that is not).
public func expectIncreasing(_ timestamps: [Int], sourceLocation: SourceLocation = #_sourceLocation) {
    for (previous, next) in zip(timestamps, timestamps.dropFirst()) where next <= previous {
        Issue.record("timestamps not increasing: \(previous) then \(next) in \(timestamps)", sourceLocation: sourceLocation)
        return
    }
}

/// What follows MediaPipe's message for a model without the normalization it needs: how to add
/// it with this package's tool.
public let addNormalizationHint =
    " Add it with `vision-tasks metadata write MODEL --mean M --std S --output OUT`, using the values "
    + "the model was trained with (127.5 and 127.5 for inputs in [-1, 1])."
