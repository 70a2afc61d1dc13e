import SyncProtocol
import Testing

@Suite struct BlobReferenceTests {
    let a = String(repeating: "a", count: 64)
    let b = String(repeating: "0123456789abcdef", count: 4)

    @Test func digestsAreFoundAnywhereOnceInOrder() {
        let body = "![x](attachment:\(b)/x.png) text `attachment:\(a)/y` and again attachment:\(b)/z.gif"
        #expect(BlobReference.digests(in: body) == [b, a])
    }

    @Test func onlyLowerCaseHexOfSixtyFourDigitsFollowedByASlashCounts() {
        #expect(BlobReference.digests(in: "attachment:\(a.uppercased())/x").isEmpty)
        #expect(BlobReference.digests(in: "attachment:\(a.dropLast())/x").isEmpty)
        #expect(BlobReference.digests(in: "attachment:\(a)x").isEmpty)
        #expect(BlobReference.digests(in: "attachment:\(a)").isEmpty)
        #expect(BlobReference.digests(in: "Ünïcode attachment:\(a)/ö.png") == [a])
        #expect(BlobReference.isDigest(a) && !BlobReference.isDigest("A" + a.dropFirst()))
    }
}
