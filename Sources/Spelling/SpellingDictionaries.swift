import CEnchant
import Foundation
import Synchronization

/// The spelling dictionaries installed on this machine (enchant-2 with Debian's hunspell
/// dictionaries), and the checker of each language.
///
/// One value serves the whole app: enchant's broker and dictionaries are not safe to use from two
/// threads at once, so every call goes through one lock. Checkers stay open until the value goes.
///
///     let dictionaries = SpellingDictionaries()
///     if let checker = dictionaries.checker(for: "de_DE") {
///         let flagged = checker.misspellings(in: text)
///     }
public final class SpellingDictionaries: Sendable {
    /// The broker and the dictionaries it opened, by language tag.
    private let state: Mutex<Broker>

    /// Opens enchant's broker (which finds the installed dictionaries).
    public init() {
        state = Mutex(Broker())
    }

    /// The language tags of the installed dictionaries (`en_US`, `de_DE`, `fr`…), sorted, each once.
    public var installedLanguages: [String] {
        state.withLock { broker in
            final class Found { var tags: Set<String> = [] }
            let found = Found()
            let unmanaged = Unmanaged.passRetained(found)
            defer { unmanaged.release() }
            enchant_broker_list_dicts(broker.pointer, { tag, _, _, _, data in
                guard let tag, let data else { return }
                Unmanaged<Found>.fromOpaque(data).takeUnretainedValue().tags.insert(String(cString: tag))
            }, unmanaged.toOpaque())
            return found.tags.sorted()
        }
    }

    /// Whether a dictionary for `language` is installed.
    public func hasDictionary(for language: String) -> Bool {
        state.withLock { enchant_broker_dict_exists($0.pointer, language) != 0 }
    }

    /// The checker for `language`, nil when no dictionary for it is installed (the text then goes
    /// unchecked; ``DictionaryPackage/name(for:)`` names what to install).
    public func checker(for language: String) -> SpellChecker? {
        let opened = state.withLock { broker -> Bool in
            if broker.dictionaries[language] != nil { return true }
            guard enchant_broker_dict_exists(broker.pointer, language) != 0,
                  let dictionary = enchant_broker_request_dict(broker.pointer, language) else { return false }
            broker.dictionaries[language] = dictionary
            return true
        }
        return opened ? SpellChecker(language: language, dictionaries: self) : nil
    }

    /// Runs `body` with the open dictionary of `language` under the lock.
    func withDictionary<T: Sendable>(_ language: String, _ body: (OpaquePointer) -> T) -> T? {
        state.withLock { broker -> T? in
            // The pointer crosses into `body` as an address: the lock, not the region checker,
            // keeps enchant's dictionary to one thread at a time.
            guard let address = broker.dictionaries[language].map({ UInt(bitPattern: $0) }),
                  let dictionary = OpaquePointer(bitPattern: address) else { return nil }
            return body(dictionary)
        }
    }
}

/// enchant's broker and the dictionaries it handed out; only touched under the lock.
private struct Broker: ~Copyable {
    let pointer: OpaquePointer
    var dictionaries: [String: OpaquePointer] = [:]

    init() {
        guard let pointer = enchant_broker_init() else {
            // enchant_broker_init only fails when memory runs out.
            fatalError("enchant could not start")
        }
        self.pointer = pointer
    }

    deinit {
        for dictionary in dictionaries.values { enchant_broker_free_dict(pointer, dictionary) }
        enchant_broker_free(pointer)
    }
}
