import CGtk
import GtkShim
import GtkTestSupport
import XCTest

@testable import GtkKit

/// The typed widgets: what they own, what they read back, and the widget tree they build.
final class WidgetTests: GtkTestCase, @unchecked Sendable {
    func testABoxKeepsItsChildrenAfterTheirWrappersAreGone() {
        MainActor.assumeIsolated {
            let box = Box(.horizontal, spacing: 12)
            var label: Label? = Label("Notes")
            let instance = WeakObjectReference(label!.objectPointer)
            box.append(Image(iconName: "folder-symbolic"))
            box.append(label!)
            box.prepend(Label("first"))
            label = nil
            XCTAssertNotNil(instance.withObject { $0 }, "the box holds the label")
            XCTAssertEqual(box.children.map(\.typeName), ["GtkLabel", "GtkImage", "GtkLabel"])
            XCTAssertEqual(box.descendants(ofType: Label.self).map(\.text), ["first", "Notes"])
            XCTAssertEqual(box.descendants(ofType: Image.self).first?.iconName, "folder-symbolic")

            let notes = box.descendants(ofType: Label.self)[1]
            box.remove(notes)
            XCTAssertEqual(box.children.count, 2)
            XCTAssertEqual(notes.referenceCount, 1, "a removed widget is its wrapper's alone")
        }
    }

    func testLabelPropertiesRoundTrip() {
        MainActor.assumeIsolated {
            let label = Label("a < b")
            XCTAssertEqual(label.text, "a < b")
            XCTAssertFalse(label.usesMarkup)
            label.horizontalAlignment = 0
            label.ellipsizesAtEnd = true
            label.wraps = true
            label.isSelectable = true
            XCTAssertEqual(label.horizontalAlignment, 0)
            XCTAssertTrue(label.ellipsizesAtEnd && label.wraps && label.isSelectable)
            XCTAssertFalse(label.wrapsInsideWords)
            label.wrapsInsideWords = true
            label.maximumLines = 2
            label.maximumWidthInCharacters = 24
            XCTAssertTrue(label.wrapsInsideWords)
            XCTAssertEqual([label.maximumLines, label.maximumWidthInCharacters], [2, 24])
            label.showMessage("Could not export.", isError: true)
            XCTAssertTrue(label.isVisible && label.hasStyleClass("error"))
            XCTAssertEqual(label.text, "Could not export.")
            label.showMessage(nil)
            XCTAssertFalse(label.isVisible || label.hasStyleClass("error"))
        }
    }

    func testWidgetStateRoundTrips() {
        MainActor.assumeIsolated {
            let label = Label("Draft")
            label.tooltipText = "Saved"
            XCTAssertEqual(label.tooltipText, "Saved")
            label.tooltipText = nil
            XCTAssertNil(label.tooltipText)
            label.isSensitive = false
            XCTAssertFalse(label.isSensitive)
            label.marginStart = 6
            label.marginEnd = 8
            label.marginTop = 4
            label.marginBottom = 2
            XCTAssertEqual([label.marginStart, label.marginEnd, label.marginTop, label.marginBottom], [6, 8, 4, 2])
            label.expandsHorizontally = true
            XCTAssertTrue(label.expandsHorizontally)
            XCTAssertFalse(label.expandsVertically)
            XCTAssertFalse(label.centersVertically)
            label.centersVertically = true
            XCTAssertTrue(label.centersVertically)
            let wide = label.size(ofText: String(repeating: "0", count: 20))
            let narrow = label.size(ofText: "0")
            XCTAssertGreaterThan(narrow.width, 0)
            XCTAssertGreaterThan(wide.width, narrow.width * 10, "twenty characters are wider than ten")
        }
    }

    func testATooltipReadWhenDueAsksForItsTextOnlyThen() {
        MainActor.assumeIsolated {
            let badge = Image()
            badge.pixelSize = 12
            XCTAssertEqual(badge.pixelSize, 12)
            let state = TooltipState()
            badge.showsTooltip {
                state.asked += 1
                return state.text
            }
            XCTAssertNotEqual(gtk_widget_get_has_tooltip(badge.widgetPointer), 0)
            XCTAssertEqual(state.asked, 0, "nothing is read before a tooltip is due")
            let tooltip = g_object_new_with_properties(gtk_tooltip_get_type(), 0, nil, nil)!
            defer { g_object_unref(tooltip) }
            @MainActor func query() -> Int32? {
                emit("query-tooltip", on: badge, [.int(3), .int(3), .boolean(false), .object(tooltip, gtk_tooltip_get_type())],
                     returns: gtkshim_type_boolean())
            }
            XCTAssertEqual(query(), 1, "a text shows the tooltip")
            state.text = nil
            XCTAssertEqual(query(), 0, "no text, no tooltip")
            XCTAssertEqual(state.asked, 2)
        }
    }

    func testFocusAndAncestry() {
        MainActor.assumeIsolated {
            let window = Window()
            defer { window.destroy() }
            let box = Box(.vertical)
            let entry = Entry()
            let other = Entry()
            box.append(entry)
            box.append(other)
            window.child = box
            window.present()
            spinMainLoop { window.isMapped }
            XCTAssertTrue(entry.grabFocus())
            spinMainLoop { entry.hasFocus || window.focusedWidget?.isInside(entry) == true }
            XCTAssertTrue(window.focusedWidget?.isInside(box) == true, "the focus is in the box")
            XCTAssertFalse(window.focusedWidget?.isInside(other) == true)
            XCTAssertFalse(box.isInside(box), "a widget is not inside itself")
        }
    }

    func testStackRevealerProgressAndSpinner() throws {
        try MainActor.assumeIsolated {
            let builder = try Builder(string: """
                <interface>
                  <object class="GtkStack" id="stack">
                    <child><object class="GtkStackPage"><property name="name">list</property>
                      <property name="child"><object class="GtkLabel"/></property></object></child>
                    <child><object class="GtkStackPage"><property name="name">empty</property>
                      <property name="child"><object class="GtkLabel"/></property></object></child>
                  </object>
                  <object class="GtkRevealer" id="revealer"/>
                  <object class="GtkProgressBar" id="progress"/>
                  <object class="GtkSpinner" id="spinner"/>
                </interface>
                """)
            let stack = try builder.object("stack", as: Stack.self)
            XCTAssertEqual(stack.visibleChildName, "list")
            stack.visibleChildName = "empty"
            XCTAssertEqual(stack.visibleChildName, "empty")
            let revealer = try builder.object("revealer", as: Revealer.self)
            revealer.revealsChild = true
            XCTAssertTrue(revealer.revealsChild)
            let progress = try builder.object("progress", as: ProgressBar.self)
            progress.fraction = 0.25
            XCTAssertEqual(progress.fraction, 0.25)
            let spinner = try builder.object("spinner", as: Spinner.self)
            spinner.isSpinning = true
            XCTAssertTrue(spinner.isSpinning)
            spinner.isSpinning = false
            XCTAssertFalse(spinner.isSpinning)
        }
    }

    func testTogglesAndSwitchesReportTheirChanges() {
        MainActor.assumeIsolated {
            let toggle = ToggleButton(label: "_Mine")
            XCTAssertEqual(toggle.label, "_Mine")
            var toggled: [Bool] = []
            toggle.connect(.toggled) { [unowned toggle] in toggled.append(toggle.isActive) }
            toggle.isActive = true
            toggle.isActive = true
            toggle.isActive = false
            XCTAssertEqual(toggled, [true, false], "toggled fires on changes only")

            let onOff = Switch(owning: gtk_switch_new())
            var notified = 0
            onOff.connect(.notify("active")) { _ in notified += 1 }
            onOff.isActive = true
            XCTAssertTrue(onOff.isActive)
            XCTAssertEqual(notified, 1)
        }
    }

    func testBoundPropertiesFollowEachOther() {
        MainActor.assumeIsolated {
            let button = ToggleButton(owning: gtk_toggle_button_new())
            let bar = SearchBar(owning: gtk_search_bar_new())
            button.isActive = true
            button.bind("active", to: bar, "search-mode-enabled", bidirectional: true)
            XCTAssertTrue(bar.isSearchModeEnabled, "the binding starts with the source's value")
            bar.isSearchModeEnabled = false
            XCTAssertFalse(button.isActive, "and goes both ways")

            let label = Label("one-way")
            let other = Label()
            label.bind("label", to: other, "label")
            label.text = "changed"
            XCTAssertEqual(other.text, "changed")
            other.text = "back"
            XCTAssertEqual(label.text, "changed", "a one-way binding does not go back")
        }
    }

    func testAWidgetStyleSheetAppliesToThatWidgetOnly() {
        MainActor.assumeIsolated {
            let window = Window()
            defer { window.destroy() }
            window.defaultSize = (120, 60)
            let box = Box(.horizontal)
            let styled = Label("    ")
            styled.expandsHorizontally = true
            let plain = Label("    ")
            plain.expandsHorizontally = true
            box.append(styled)
            box.append(plain)
            window.child = box
            let sheet = StyleSheet()
            styled.add(sheet)
            sheet.load(css: "label { background-color: #ff0000; }")
            window.present()
            var rendered: Result<Texture, any Error>?
            window.afterNextFrame { rendered = Result { try box.renderTexture() } }
            spinMainLoop { rendered != nil }
            guard case .success(let texture) = rendered else { return XCTFail("\(String(describing: rendered))") }
            let pixels = texture.pixels()
            let row = texture.height / 2 * texture.width
            XCTAssertEqual(pixels[row + styled.width / 2], 0xFFFF_0000, "the styled label is red")
            XCTAssertNotEqual(pixels[row + styled.width + plain.width / 2], 0xFFFF_0000, "its neighbour is not")
        }
    }
}

/// What a tooltip's text function answers, and how often it was asked.
@MainActor
private final class TooltipState {
    var text: String? = "Synced"
    var asked = 0
}
