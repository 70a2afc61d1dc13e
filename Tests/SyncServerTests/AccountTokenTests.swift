import Platform
@testable import SyncServer
import Testing

@Suite struct AccountTokenTests {
    @Test func tokensAreLongRandomAndHashedNotKept() {
        let first = AccountToken.generate()
        let second = AccountToken.generate()
        #expect(first.text.hasPrefix("qtk_") && first.text.count == 47)
        #expect(first.text != second.text)
        #expect(first.hash == SHA256.hex(first.text.utf8) && first.hash.count == 64)
        #expect(!"\(first)".contains(first.text))
    }
}
