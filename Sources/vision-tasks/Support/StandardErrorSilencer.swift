import Glibc

/// Hides what libraries print on stderr while a model is loaded: LiteRT prints
/// "INFO: Created TensorFlow Lite XNNPACK delegate for CPU." every time one is compiled, and
/// libLiteRt.so has no switch for it. Descriptor 2 points at /dev/null only for the duration
/// of the call, and is restored afterwards, also when the call throws.
enum StandardErrorSilencer {
    /// Runs `body` with descriptor 2 redirected to /dev/null, unless `verbose`.
    /// If the redirection cannot be set up, `body` runs with stderr as it is.
    /// The corresponding C functions are `dup` (as `fcntl(F_DUPFD_CLOEXEC)`), `dup2` and `open`.
    static func silencing<Value, Failure: Error>(
        unless verbose: Bool,
        _ body: () throws(Failure) -> Value
    ) throws(Failure) -> Value {
        guard !verbose, let saved = redirectToNull() else { return try body() }
        defer { restore(saved) }
        return try body()
    }

    /// Points descriptor 2 at /dev/null; returns a descriptor of the previous stderr.
    private static func redirectToNull() -> Int32? {
        fflush(nil)  // every C stream: what was written before goes where it was meant to
        let saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0)
        guard saved >= 0 else { return nil }
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard null >= 0 else {
            close(saved)
            return nil
        }
        defer { close(null) }
        guard dup2(null, STDERR_FILENO) >= 0 else {
            close(saved)
            return nil
        }
        return saved
    }

    /// Points descriptor 2 back at `saved` and closes `saved`.
    private static func restore(_ saved: Int32) {
        fflush(nil)  // every C stream: what was written before goes where it was meant to
        while dup2(saved, STDERR_FILENO) < 0, errno == EINTR {}
        close(saved)
    }
}
