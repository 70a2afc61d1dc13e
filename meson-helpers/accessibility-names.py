#!/usr/bin/python3
"""Reads Quire's window as a screen reader does, over AT-SPI, and names its unnamed controls.

    accessibility-names.py QUIRE LIBRARY [--conflict-dialog | --preferences | --rename-dialog]

Starts QUIRE over LIBRARY with GTK's accessibility on (without GTK_A11Y=none, NO_AT_BRIDGE), waits
for it on the accessibility bus (at-spi2-core starts the bus through the session bus), walks its
tree, then presses Ctrl+N (xdotool, XTEST) so that a new article opens in the editor, and walks it
again. Prints one JSON object: how many nodes it read, every visible focusable button with no name
of its own (GTK 4.8 names an unlabelled button by its type, "GtkImage"), every visible text field,
text view or list with no name ("unnamedFields"), the names of the fields and lists ("fields":
role and name), and how many list rows there are and which say nothing (GTK 4.8 cannot name a list
item itself; a row is described when a widget inside it has a name). A drop-down's inner button is
left to its combo box, which a screen reader announces. "badNames" lists the names a person would
hear wrongly: a button's name with a mnemonic's underscore ("Keep B_oth"), and any name said twice
("Size Size": GTK 4.8 joins a widget's own label and the labels that point at it). Exits 1 when a
button or field has no name, a row says nothing or a name is bad, 2 when Quire never appeared on
the bus.

With --conflict-dialog (LIBRARY holds an open conflict) it presses Alt+R instead, the conflict
banner's Resolve, and reads the dialog: "relations" lists every labelled-by and described-by
relation a screen reader reads there (the node's role and name, the relation, the targets' names),
"buttons" every button's name, and "badNames" as above.

With --preferences it presses Ctrl+, and reads the Preferences window page by page (each of its
tabs is clicked through AT-SPI, as a screen reader does): as above, and "unnamedControls" lists
every focusable node without a name, whatever its role. With --rename-dialog it clicks a folder's
or tag's menu button in the sidebar and its Rename item (through AT-SPI) and reads the rename
dialog the same way. Both exit 1 on any unnamed control, unnamed field, silent row or bad name.
"""
import json
import os
import subprocess
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402


def unnamed(node):
    name = (node.get_name() or "").strip()
    return not name or name.startswith(("Gtk", "Adw"))


def said_twice(name):
    """Whether `name` is one phrase said twice ("Size Size", "Keep Both Keep Both")."""
    words = name.replace("_", "").split()
    half = len(words) // 2
    return half > 0 and len(words) % 2 == 0 and words[:half] == words[half:]


def described(node, depth=0):
    """Whether `node` (a row named by its title) or a widget close inside it has a name a person can hear."""
    if node is None or depth > 2:
        return False
    if not unnamed(node):
        return True
    return any(described(node.get_child_at_index(index), depth + 1) for index in range(node.get_child_count()))


def ancestry(node):
    """Where `node` sits, for a person reading the report: its nearest named ancestors' roles and names."""
    found = []
    parent = node.get_parent()
    while parent is not None and len(found) < 3:
        if not unnamed(parent):
            found.append(f"{parent.get_role_name()} '{parent.get_name()}'")
        parent = parent.get_parent()
    return " < ".join(found)


# Roles of the controls a writer types into or chooses from, which need a name of their own.
FIELD_ROLES = {"text", "entry", "password text", "list", "list box", "document web", "spin button"}


def read(application):
    """Walks the tree under `application`: the report's counts and lists."""
    report = {"nodes": 0, "unnamedButtons": [], "unnamedFields": [], "unnamedControls": [], "fields": [], "rows": 0, "silentRows": [],
              "buttons": [], "badNames": []}
    pending = [(application, 0)]
    while pending:
        node, depth = pending.pop()
        if node is None or depth > 80:
            continue
        report["nodes"] += 1
        role = node.get_role_name()
        states = node.get_state_set()
        # GTK 4.8 sets VISIBLE but never SHOWING.
        visible = states.contains(Atspi.StateType.VISIBLE)
        parent = node.get_parent()
        in_combo_box = parent is not None and parent.get_role_name() == "combo box" and not unnamed(parent)
        if ("button" in role and states.contains(Atspi.StateType.FOCUSABLE) and states.contains(Atspi.StateType.VISIBLE)
                and unnamed(node) and not in_combo_box):
            report["unnamedButtons"].append({"role": role, "name": node.get_name(), "parent": parent.get_role_name() if parent else None})
        name = node.get_name() or ""
        focusable = states.contains(Atspi.StateType.FOCUSABLE)
        # A list item is told by what it shows (GTK 4.8 cannot name it): see "silentRows".
        if focusable and visible and unnamed(node) and not in_combo_box and role != "list item":
            report["unnamedControls"].append({"role": role, "name": name, "inside": ancestry(node)})
        if "button" in role and role != "spin button" and visible and not unnamed(node):
            report["buttons"].append(name)
        if (("button" in role and "_" in name) or said_twice(name)) and visible:
            report["badNames"].append({"role": role, "name": name})
        if role in FIELD_ROLES and visible:
            if unnamed(node):
                report["unnamedFields"].append({"role": role, "parent": parent.get_role_name() if parent else None})
            else:
                report["fields"].append({"role": role, "name": node.get_name()})
        if role == "list item" and parent is not None and parent.get_role_name() == "list":
            report["rows"] += 1
            if not described(node):
                report["silentRows"].append(parent.get_name())
        for index in range(node.get_child_count()):
            pending.append((node.get_child_at_index(index), depth + 1))
    return report


def press(process, key):
    """Focuses Quire's window and presses `key` (xdotool, XTEST), as a writer would."""
    for _ in range(100):
        found = subprocess.run(["xdotool", "search", "--all", "--onlyvisible", "--pid", str(process.pid), "--name", "^Quire$"],
                               capture_output=True, text=True)
        windows = found.stdout.split()
        if windows and subprocess.run(["xdotool", "windowfocus", "--sync", windows[-1]]).returncode == 0:
            subprocess.run(["xdotool", "key", key], check=True)
            return True
        time.sleep(0.1)
    return False


RELATIONS = {Atspi.RelationType.LABELLED_BY: "labelled-by", Atspi.RelationType.DESCRIBED_BY: "described-by"}


def relations(window):
    """Every labelled-by and described-by relation under `window`: role, name, relation, target names."""
    found = []
    pending = [(window, 0)]
    while pending:
        node, depth = pending.pop()
        if node is None or depth > 80:
            continue
        for relation in node.get_relation_set() or []:
            kind = RELATIONS.get(relation.get_relation_type())
            if kind:
                targets = [relation.get_target(index).get_name() for index in range(relation.get_n_targets())]
                found.append({"role": node.get_role_name(), "name": node.get_name(), "relation": kind, "targets": targets})
        for index in range(node.get_child_count()):
            pending.append((node.get_child_at_index(index), depth + 1))
    return found


def conflict_dialog(process, application):
    """Presses Alt+R and reads the relations of the window named Resolve Conflict once it is on the bus."""
    if not press(process, "alt+r"):
        return {"error": "could not focus the window to press Alt+R"}
    for _ in range(600):
        for index in range(application.get_child_count()):
            window = application.get_child_at_index(index)
            # The dialog's texts come with its first frames: its relations are read once they hold targets.
            if window is not None and window.get_name() == "Resolve Conflict":
                found = relations(window)
                if any(relation["targets"] and relation["role"] != "dialog" for relation in found):
                    report = read(window)
                    return {"relations": found, "buttons": report["buttons"], "badNames": report["badNames"]}
        time.sleep(0.1)
    return {"error": "the conflict dialog never appeared on the accessibility bus"}


def windows(application):
    """The application's windows on the bus now."""
    found = [application.get_child_at_index(index) for index in range(application.get_child_count())]
    return [window for window in found if window is not None]


def every(node, matches, depth=0):
    """The nodes under `node` (and itself), depth first, that `matches`."""
    if node is None or depth > 80:
        return []
    found = [node] if matches(node) else []
    for index in range(node.get_child_count()):
        found += every(node.get_child_at_index(index), matches, depth + 1)
    return found


def find(node, matches):
    """The first node under `node` (depth first) that `matches`, or None."""
    return next(iter(every(node, matches)), None)


def click(node):
    """Clicks `node` through its AT-SPI action, as a screen reader's activate does."""
    return node is not None and node.get_n_actions() > 0 and node.do_action(0)


def merge(report, more):
    """Adds the findings of `more` to `report`, each once."""
    report["nodes"] += more["nodes"]
    report["rows"] += more["rows"]
    for key in ("unnamedButtons", "unnamedFields", "unnamedControls", "fields", "silentRows", "buttons", "badNames"):
        report[key] += [item for item in more[key] if item not in report[key]]


def preferences(process, application):
    """Presses Ctrl+, and reads every page of the Preferences window, each tab clicked in turn."""
    if not press(process, "ctrl+comma"):
        return {"error": "could not focus the window to press Ctrl+,"}
    window = None
    for _ in range(600):
        window = next((window for window in windows(application) if window.get_name() == "Preferences"), None)
        if window is not None and find(window, lambda node: node.get_role_name() == "page tab") is not None:
            break
        time.sleep(0.1)
    else:
        return {"error": "the Preferences window never appeared on the accessibility bus"}
    # The tabs are in the header and again in the bar below a narrow window.
    tabs = list(dict.fromkeys(tab.get_name() for tab in every(window, lambda node: node.get_role_name() == "page tab")))
    report = None
    for tab in tabs:
        if not click(find(window, lambda node: node.get_role_name() == "page tab" and node.get_name() == tab)):
            return {"error": f"could not click the tab {tab}"}
        # The page's rows come with its next frames.
        time.sleep(1)
        page = read(window)
        if report is None:
            report = page
        else:
            merge(report, page)
    report["pages"] = tabs
    return report


def rename_dialog(process, application):
    """Clicks a folder's or tag's menu button in the sidebar, then Rename, and reads the dialog."""
    main = next((window for window in windows(application) if window.get_name() == "Quire"), None)
    sidebar = find(main, lambda node: node.get_role_name() == "list" and node.get_name() == "Folders and tags")
    # The menu button's own toggle button is the one with an action to click.
    menu_button = find(sidebar, lambda node: "button" in node.get_role_name() and (node.get_name() or "").endswith(" Menu")
                       and node.get_n_actions() > 0)
    if not click(menu_button):
        return {"error": "no folder or tag menu button to click"}
    item = None
    for _ in range(100):
        item = find(sidebar, lambda node: node.get_role_name() == "menu item" and (node.get_name() or "").startswith("Rename "))
        if item is not None:
            break
        time.sleep(0.1)
    if not click(item):
        return {"error": "the menu has no Rename item"}
    for _ in range(600):
        dialogs = [window for window in windows(application) if window.get_name() != "Quire"]
        if dialogs and find(dialogs[0], lambda node: node.get_role_name() in FIELD_ROLES) is not None:
            report = read(dialogs[0])
            report["dialog"] = dialogs[0].get_name()
            report["role"] = dialogs[0].get_role_name()
            return report
        time.sleep(0.1)
    return {"error": "the rename dialog never appeared on the accessibility bus"}


def main():
    quire, library = sys.argv[1], sys.argv[2]
    reads_conflict_dialog = "--conflict-dialog" in sys.argv[3:]
    environment = dict(os.environ)
    environment.pop("GTK_A11Y", None)
    environment.pop("NO_AT_BRIDGE", None)
    process = subprocess.Popen([quire, "--library", library], env=environment, stderr=subprocess.DEVNULL)
    try:
        application = None
        for _ in range(600):
            desktop = Atspi.get_desktop(0)
            for index in range(desktop.get_child_count()):
                child = desktop.get_child_at_index(index)
                if child is not None and (child.get_name() or "").lower().startswith("quire") and child.get_child_count() > 0:
                    application = child
            if application is not None:
                break
            time.sleep(0.1)
        if application is None:
            print(json.dumps({"error": "quire never appeared on the accessibility bus"}))
            return 2
        if reads_conflict_dialog:
            report = conflict_dialog(process, application)
            print(json.dumps(report))
            return 2 if "error" in report else (1 if report["badNames"] else 0)
        dialog = preferences if "--preferences" in sys.argv[3:] else rename_dialog if "--rename-dialog" in sys.argv[3:] else None
        if dialog is not None:
            # The window's widgets come with its first frames.
            time.sleep(2)
            report = dialog(process, application)
            print(json.dumps(report))
            if "error" in report:
                return 2
            failed = report["unnamedControls"] or report["unnamedFields"] or report["silentRows"] or report["badNames"]
            return 1 if failed else 0
        # The window's widgets come with its first frames.
        time.sleep(2)
        report = read(application)
        if not press(process, "ctrl+n"):
            print(json.dumps({"error": "could not focus the window to press Ctrl+N"}))
            return 2
        time.sleep(3)
        editing = read(application)
        rows = max(report["rows"], editing["rows"])
        merge(report, editing)
        report["rows"] = rows
        print(json.dumps(report))
        failed = report["unnamedButtons"] or report["unnamedFields"] or report["silentRows"] or report["badNames"]
        return 1 if failed else 0
    finally:
        process.terminate()
        process.wait()


if __name__ == "__main__":
    sys.exit(main())
