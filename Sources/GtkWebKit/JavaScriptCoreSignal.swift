import Glibc

/// JavaScriptCore suspends its threads for garbage collection with a signal, `SIGUSR1` unless
/// told otherwise, and replaces the process's own handler for it; apps use `SIGUSR1` (Quire's
/// stall measurement does), and a `SIGUSR1` then crashes the process. JavaScriptCore reads the
/// choice (`JSC_SIGNAL_FOR_GC`) once, when the first WebKit object is made: every GtkWebKit
/// initializer calls ``choose()`` first. `SIGPWR` is used by nothing else here.
enum JavaScriptCoreSignal {
    private static let chosen: Void = {
        setenv("JSC_SIGNAL_FOR_GC", "\(SIGPWR)", 0)
    }()

    /// Sets `JSC_SIGNAL_FOR_GC`, unless the environment already does.
    static func choose() {
        _ = chosen
    }
}
