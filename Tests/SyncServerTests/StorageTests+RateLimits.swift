import Foundation
@testable import SyncServer
import Testing

extension StorageTests {
    @Test(arguments: StorageKind.allCases)
    func sharedBucketsRefillWithTimeAndCountEveryTaker(_ kind: StorageKind) throws {
        try withStorage(kind) { storage in
            let alice = try account(storage, "alice")
            let bob = try account(storage, "bob")
            func take(_ account: AccountID, at offset: TimeInterval) throws -> Int? {
                try storage.takeRequestToken(account: account, rate: 2, burst: 3, at: Self.start + offset)
            }
            for _ in 0..<3 { #expect(try take(alice, at: 0) == nil) }
            #expect(try take(alice, at: 0) == 1)
            #expect(try take(bob, at: 0) == nil)
            // Half a second brings one request back, at two a second.
            #expect(try take(alice, at: 0.5) == nil)
            #expect(try take(alice, at: 0.5) == 1)
            // A clock that goes back refills nothing.
            #expect(try take(alice, at: 0.2) == 1)
            // A long wait refills to the burst, not beyond.
            for _ in 0..<3 { #expect(try take(alice, at: 100) == nil) }
            #expect(try take(alice, at: 100) == 1)

            // The largest rate allowed, after a year: no overflow anywhere.
            let fast = { (offset: TimeInterval) in
                try storage.takeRequestToken(account: bob, rate: 1_000_000, burst: 2_000_000, at: Self.start + offset)
            }
            #expect(try fast(0) == nil && fast(1) == nil && fast(365 * 86400) == nil)
        }
    }
}
