import Foundation
import Testing
@testable import Transfer

/// The editor's thumbnails as Transfer draws them: raster images and SVG fit a square with their
/// aspect, a small image is never enlarged, and bytes that are no image Quire draws give none.
@Suite struct AttachmentThumbnailTests {
    /// The colour of the pixel at `x`, `y`, as premultiplied 0xAARRGGBB.
    private func pixel(_ thumbnail: AttachmentThumbnail, _ x: Int, _ y: Int) -> UInt32 {
        thumbnail.pixels.withUnsafeBytes { $0.load(fromByteOffset: y * thumbnail.stride + x * 4, as: UInt32.self) }
    }

    @Test func aRasterImageFitsTheSquareWithItsAspect() throws {
        for type in ["png", "jpeg", "webp"] {
            let wide = try ImageSamples.solid(type, width: 300, height: 150, rgb: 0x0000FF)
            let thumbnail = try #require(AttachmentThumbnail(wide, fitting: 96), "\(type)")
            #expect(thumbnail.width == 96 && thumbnail.height == 48, "\(type)")
            #expect(thumbnail.pixels.count == thumbnail.stride * 48)
            // JPEG's blue is only nearly pure.
            let centre = pixel(thumbnail, 48, 24)
            #expect(centre >> 24 == 0xFF && centre & 0xFF > 0xF0 && (centre >> 16) & 0xFF < 0x10, "\(type): \(String(centre, radix: 16))")
        }
        let tall = try ImageSamples.solid("png", width: 100, height: 400, rgb: 0x00FF00)
        let thumbnail = try #require(AttachmentThumbnail(tall, fitting: 96))
        #expect(thumbnail.width == 24 && thumbnail.height == 96)
    }

    @Test func aSmallImageIsNotEnlargedAndSVGIsDrawn() throws {
        let small = try #require(AttachmentThumbnail(try ImageSamples.solid("png", width: 20, height: 10, rgb: 0xFF0000), fitting: 96))
        #expect(small.width == 20 && small.height == 10)
        let svg = try #require(AttachmentThumbnail(ImageSamples.svg(size: 200), fitting: 96))
        #expect(svg.width == 96 && svg.height == 96)
        #expect(pixel(svg, 48, 48) == 0xFFFF_0000, "the red square is drawn")
    }

    @Test func bytesThatAreNoImageGiveNoThumbnail() throws {
        #expect(AttachmentThumbnail(Data("Tide tables.\n".utf8), fitting: 96) == nil)
        let png = try ImageSamples.solid("png", width: 300, height: 150, rgb: 0x0000FF)
        #expect(AttachmentThumbnail(png.prefix(40), fitting: 96) == nil, "a cut PNG")
    }
}
