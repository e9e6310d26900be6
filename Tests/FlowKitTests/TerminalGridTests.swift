import FlowTerminal
import Testing

@Suite("TerminalGrid, the in-memory terminal the renderer tests read")
struct TerminalGridTests {
    @Test("a line break on the last row scrolls the top row into the scrollback; the cursor stops at the top")
    func scrolling() {
        let grid = TerminalGrid(width: 10, height: 3)
        grid.write("a\r\nb\r\nc\r\nd")
        #expect(grid.lines == ["b", "c", "d"])
        #expect(grid.scrollback == ["a"])
        #expect(grid.history == ["a", "b", "c", "d"])
        grid.write("\u{1B}[10A")
        #expect(grid.cursor.row == 0)
        grid.write("\r\u{1B}[J")
        #expect(grid.history == ["a"])
    }

    @Test("text longer than a row wraps onto the next, wide characters whole")
    func wrapping() {
        let grid = TerminalGrid(width: 5)
        grid.write("abcd界x")
        #expect(grid.lines == ["abcd", "界x"])
        #expect(grid.cursor.row == 1 && grid.cursor.column == 3)
    }

    @Test("narrowing re-wraps long lines and keeps the cursor on its character; widening joins them again")
    func reflow() {
        let grid = TerminalGrid(width: 10, height: 10)
        grid.write("abcdefgh\r\nxy\r\nlast")
        grid.write("\u{1B}[1A\r\u{1B}[2G")               // the cursor on the "y"
        grid.resize(width: 4, height: 10)
        #expect(grid.lines == ["abcd", "efgh", "xy", "last"])
        #expect(grid.cursor.row == 2 && grid.cursor.column == 1)
        grid.resize(width: 10, height: 10)
        #expect(grid.lines == ["abcdefgh", "xy", "last"])
        #expect(grid.cursor.row == 1 && grid.cursor.column == 1)
    }

    @Test("rows that no longer fit after narrowing go into the scrollback")
    func reflowIntoScrollback() {
        let grid = TerminalGrid(width: 8, height: 3)
        grid.write("aaaaaa\r\nbbbbbb\r\ncc")
        grid.resize(width: 3, height: 3)
        #expect(grid.history == ["aaa", "aaa", "bbb", "bbb", "cc"])
        #expect(grid.lines == ["bbb", "bbb", "cc"])
        #expect(grid.cursor.row == 2 && grid.cursor.column == 2)
    }
}
