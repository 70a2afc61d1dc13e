/// The preview's own script, run by WebKit in the `quire` script world (the page's scripts never
/// run): it puts each new rendering in place, scrolls to a Markdown line, and tells the editor
/// which line the writer scrolled the preview to. Lines count from 1, as cmark's
/// `data-sourcepos` does.
enum PreviewScript {
    static let source = #"""
        const quire = {
          blocks() { return document.querySelectorAll('#quire-preview [data-sourcepos]'); },
          span(block) {
            const [start, end] = block.dataset.sourcepos.split('-');
            return [parseInt(start), parseInt(end)];
          },
          // The block at a line (the innermost that starts at or before it), and where in it.
          scrollToLine(line, fraction) {
            let target = null;
            for (const block of this.blocks()) {
              if (this.span(block)[0] <= line) target = block; else break;
            }
            let y = 0;
            if (target !== null) {
              const [start, end] = this.span(target);
              const box = target.getBoundingClientRect();
              const part = Math.min(1, (line - start + fraction) / (end - start + 1));
              y = box.top + window.scrollY + part * box.height;
            }
            window.scrollTo(0, y);
          },
          // The line at the top of the view, with the fraction of it scrolled past.
          topLine() {
            let found = null;
            for (const block of this.blocks()) {
              const box = block.getBoundingClientRect();
              if (box.top <= 1) found = block; else break;
            }
            if (found === null) return [1, 0];
            const [start, end] = this.span(found);
            const box = found.getBoundingClientRect();
            const lines = end - start + 1;
            const into = box.height > 0 ? Math.min(0.999, -box.top / box.height) * lines : 0;
            return [start + Math.floor(into), into - Math.floor(into)];
          },
          update(html, generation, line, fraction) {
            document.getElementById('quire-preview').innerHTML = html;
            this.scrollToLine(line, fraction);
            // "shown" once the frame holding the new text is painted: a frame callback runs
            // before that frame's paint, the task it queues after it.
            requestAnimationFrame(() => setTimeout(() => window.webkit.messageHandlers.shown.postMessage(generation), 0));
          },
          setStyle(style) { document.documentElement.dataset.style = style; },
        };
        // Only scrolling the writer does is reported (wheel, keys, the scroll bar), never the
        // scrolling this script does to follow the editor, which would scroll the editor back.
        let lastInput = -Infinity;
        for (const type of ['wheel', 'keydown', 'mousedown', 'touchstart']) {
          window.addEventListener(type, () => { lastInput = performance.now(); }, { passive: true, capture: true });
        }
        let scrollReport = false;
        window.addEventListener('scroll', () => {
          if (performance.now() - lastInput > 1000 || scrollReport) return;
          scrollReport = true;
          requestAnimationFrame(() => {
            scrollReport = false;
            window.webkit.messageHandlers.scrolled.postMessage(quire.topLine());
          });
        }, { passive: true });
        """#
}
