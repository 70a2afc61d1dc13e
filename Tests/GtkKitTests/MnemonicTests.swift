import XCTest

@testable import GtkKit

/// The text a mnemonic label shows, which is what a screen reader must say for its button
/// (what it says is read over AT-SPI by `AccessibilityTreeTests`).
final class MnemonicTests: XCTestCase {
    func testTheMnemonicsUnderscoreIsTakenOut() {
        XCTAssertEqual(Mnemonic.text(of: "Keep B_oth"), "Keep Both")
        XCTAssertEqual(Mnemonic.text(of: "_Cancel"), "Cancel")
        XCTAssertEqual(Mnemonic.text(of: "Show _Base"), "Show Base")
        XCTAssertEqual(Mnemonic.text(of: "Close"), "Close")
        XCTAssertEqual(Mnemonic.text(of: ""), "")
    }

    func testADoubledUnderscoreIsShownOnceAndALastOneAsItIs() {
        XCTAssertEqual(Mnemonic.text(of: "snake__case"), "snake_case")
        XCTAssertEqual(Mnemonic.text(of: "__init__"), "_init_")
        XCTAssertEqual(Mnemonic.text(of: "Save as _new__draft"), "Save as new_draft")
        XCTAssertEqual(Mnemonic.text(of: "Draft_"), "Draft_")
    }
}
