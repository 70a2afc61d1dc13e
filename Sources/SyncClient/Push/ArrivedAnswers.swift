import Synchronization

/// The answers of a push's requests, collected as they arrive so that the worker persists all that
/// arrived while it was busy in one transaction. Nobody waits on it: the worker waits for its
/// requests' tasks to end, and each adds its answer before it ends.
final class ArrivedAnswers: Sendable {
    /// One request's outcome, as the reducer takes it.
    struct Answer: Sendable {
        let operationID: String
        let event: OperationEvent
        /// Why no answer came, when none did.
        let error: TransportError?
    }

    private let answers = Mutex<[Answer]>([])

    /// Adds a request's outcome.
    func add(_ answer: Answer) {
        answers.withLock { $0.append(answer) }
    }

    /// The outcomes added since the last call, oldest first.
    func takeAll() -> [Answer] {
        answers.withLock { answers in
            defer { answers.removeAll(keepingCapacity: true) }
            return answers
        }
    }
}
