package site

import _ "embed"

// CSS is the one stylesheet of every page (the reference's pages and the capture report), without
// its <style> element: CSS custom properties for the colours with a prefers-color-scheme: dark
// variant (links 4.5:1 or more on either background), layouts that keep a 390 px phone free
// of sideways scrolling (the narrow grid and the 8-byte hex dump below 640 px), and a print
// style.
//
//go:embed page.css
var CSS string

// Script is the one page script, without its <script> element. It links a tree node and its
// grid field (the same data-path) and the bytes of the field in the hex dump (data-o), both
// ways, in each <section class="msg">, and shows the field in the section's detail panel from
// the JSON in its <script type="application/json" class="kg-detail"> (DetailJSON). It is
// small, inline and needs no network.
//
// Where grid and tree sit side by side, they are a viewer a screen tall (the page snaps to
// it): the grid scrolls in its own box, and the pane beside it holds the detail panel (a fixed
// slot: what it shows changes, its size does not, so nothing moves under the pointer), the hex
// dump and the tree, each scrolling in its own box. Pointing at a field in one view scrolls the
// others' boxes so that its box, row and bytes are in view; the page itself never moves under
// the pointer. Where they sit one under the other, hovering scrolls nothing; a click or tap
// selects a field and shows the panel as a sheet at the screen's bottom, the selected box
// scrolled above it and room left under the page so it covers nothing the reader cannot
// scroll above it. The panel's × closes it.
//
//go:embed page.js
var Script string
