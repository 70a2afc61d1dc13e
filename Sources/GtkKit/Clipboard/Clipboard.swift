import CGtk
import GtkShim

/// A `GdkClipboard`: the display's clipboard, as a widget's ``Widget/clipboard`` gives it. What it
/// holds may come from another program, so reading is asynchronous (the other program is asked
/// for the data); what this process put there is read at once.
///
/// ```swift
/// let clipboard = view.clipboard
/// if clipboard.offersFiles { paths = try await clipboard.readFiles() }
/// else if clipboard.offersTexture { png = try await clipboard.readTexture().pngBytes() }
/// ```
@MainActor
public final class Clipboard: Object {
    public override class var gType: GType { gdk_clipboard_get_type() }

    private var clipboardPointer: OpaquePointer { opaquePointer }

    private var formats: OpaquePointer { gdk_clipboard_get_formats(clipboardPointer) }

    /// Whether the content can be read as files (a file manager's copy: `text/uri-list` or a
    /// `GdkFileList`).
    public var offersFiles: Bool { gdk_content_formats_contain_gtype(formats, gdk_file_list_get_type()) != 0 }

    /// Whether the content can be read as an image (`image/png` and the other image types
    /// GdkPixbuf loads, or a `GdkTexture`).
    public var offersTexture: Bool { gdk_content_formats_contain_gtype(formats, gdk_texture_get_type()) != 0 }

    /// Whether the content can be read as text.
    public var offersText: Bool { gdk_content_formats_contain_gtype(formats, gtkshim_type_string()) != 0 }

    /// Puts `text` on the clipboard, as copying text does.
    public func setText(_ text: String) {
        gdk_clipboard_set_text(clipboardPointer, text)
    }

    /// Puts `texture` on the clipboard, as copying an image does.
    public func setTexture(_ texture: Texture) {
        gdk_clipboard_set_texture(clipboardPointer, texture.opaquePointer)
    }

    /// Puts the files at `paths` on the clipboard, as a file manager's copy does.
    public func setFiles(_ paths: [String]) {
        let list = FileList(paths: paths)
        var value = GValue()
        g_value_init(&value, gdk_file_list_get_type())
        defer { g_value_unset(&value) }
        // The value takes the list over.
        g_value_take_boxed(&value, UnsafeRawPointer(list.pointer))
        gdk_clipboard_set_value(clipboardPointer, &value)
    }

    /// The image on the clipboard. Throws GDK's error when there is none or it cannot be read.
    public func readTexture() async throws(GLibError) -> Texture {
        let result: Result<Texture, GLibError> = await withCheckedContinuation { continuation in
            let box = Unmanaged.passRetained(ClipboardRead(continuation)).toOpaque()
            gdk_clipboard_read_texture_async(clipboardPointer, nil, { source, result, data in
                let box = Unmanaged<ClipboardRead<Texture>>.fromOpaque(data!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let texture = gdk_clipboard_read_texture_finish(OpaquePointer(source), result, &error)
                MainActor.assumeIsolated {
                    if let texture {
                        box.continuation.resume(returning: .success(Texture(owning: UnsafeMutableRawPointer(texture))))
                    } else {
                        box.continuation.resume(returning: .failure(Clipboard.failure(error, "reading an image from the clipboard")))
                    }
                }
            }, box)
        }
        return try result.get()
    }

    /// The local paths of the files on the clipboard (files without one are left out). Throws
    /// GDK's error when the clipboard holds no files or they cannot be read.
    public func readFiles() async throws(GLibError) -> [String] {
        let result: Result<[String], GLibError> = await withCheckedContinuation { continuation in
            let box = Unmanaged.passRetained(ClipboardRead(continuation)).toOpaque()
            gdk_clipboard_read_value_async(clipboardPointer, gdk_file_list_get_type(), 0, nil, { source, result, data in
                let box = Unmanaged<ClipboardRead<[String]>>.fromOpaque(data!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let value = gdk_clipboard_read_value_finish(OpaquePointer(source), result, &error)
                MainActor.assumeIsolated {
                    if let value, let list = g_value_get_boxed(value) {
                        box.continuation.resume(returning: .success(FileList.paths(in: OpaquePointer(list))))
                    } else {
                        box.continuation.resume(returning: .failure(Clipboard.failure(error, "reading files from the clipboard")))
                    }
                }
            }, box)
        }
        return try result.get()
    }

    private static func failure(_ error: UnsafeMutablePointer<GError>?, _ operation: String) -> GLibError {
        guard let error else { return GLibError(domain: "gtkkit", code: 0, message: "nothing was read", operation: operation) }
        return GLibError(consuming: error, operation: operation)
    }
}

extension Widget {
    /// The clipboard of the widget's display (Ctrl+C and Ctrl+V use it).
    public var clipboard: Clipboard {
        Clipboard(retaining: UnsafeMutableRawPointer(gtk_widget_get_clipboard(widgetPointer)))
    }
}

/// A `GdkFileList`, the boxed list of `GFile`s that file drags and copies carry.
struct FileList {
    /// The list (a full reference, for a `GValue` to take over).
    let pointer: OpaquePointer

    /// A new list of the files at `paths`.
    init(paths: [String]) {
        var files: [OpaquePointer?] = paths.map { g_file_new_for_path($0) }
        defer { files.forEach { g_object_unref(UnsafeMutableRawPointer($0)) } }
        pointer = gdk_file_list_new_from_array(&files, gsize(files.count))
    }

    /// The local paths of the files in `list` (files without one are left out).
    static func paths(in list: OpaquePointer) -> [String] {
        var paths: [String] = []
        var node = gdk_file_list_get_files(list)
        let head = node
        defer { g_slist_free(head) }
        while let current = node {
            if let path = g_file_get_path(OpaquePointer(current.pointee.data)) {
                paths.append(String(cString: path))
                g_free(path)
            }
            node = current.pointee.next
        }
        return paths
    }
}

/// Carries a clipboard read's continuation through GIO's callback.
private final class ClipboardRead<Value> {
    let continuation: CheckedContinuation<Result<Value, GLibError>, Never>
    init(_ continuation: CheckedContinuation<Result<Value, GLibError>, Never>) { self.continuation = continuation }
}
