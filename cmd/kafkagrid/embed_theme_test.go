package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestEmbedSiteTheme shows md -inline's SVGs in Chromium inside pages that set their theme as
// site tools do, with the reader's system light and dark: the drawing follows the page's dark
// class or attribute (VitePress's .dark, mdBook's .coal, Docusaurus's data-theme) whatever the
// system says, and its light class too; with neither it follows the system; a block drawn
// with theme=light stays light. The paper (the first paint class) tells the palette.
func TestEmbedSiteTheme(t *testing.T) {
	src := filepath.Join(t.TempDir(), "p.md")
	grid := readRepo(t, "examples/protocols/udp.yaml")
	os.WriteFile(src, []byte("```bytegrid\n"+grid+"```\n\n```bytegrid theme=light\n"+grid+"```\n"), 0o644)
	md, errs, code := runCmd(t, "md", "-inline", src)
	if code != 0 {
		t.Fatalf("md: exit %d: %s", code, errs)
	}
	const light, dark = "rgb(255, 255, 255)", "rgb(13, 17, 23)"
	ctx, _, _ := browser(t)
	for _, tc := range []struct {
		html, system string
		auto, fixed  string // the paper of the default block, of the theme=light one
	}{
		{`<html>`, "light", light, light},
		{`<html>`, "dark", dark, light},
		{`<html class="dark">`, "light", dark, light},
		{`<html class="coal">`, "light", dark, light},
		{`<html data-theme="dark">`, "light", dark, light},
		{`<html class="light">`, "dark", light, light},
		{`<html data-theme="light">`, "dark", light, light},
	} {
		page := filepath.Join(t.TempDir(), "page.html")
		os.WriteFile(page, []byte("<!doctype html>"+tc.html+"<head><meta charset=\"utf-8\"></head><body>\n"+md+"\n</body></html>\n"), 0o644)
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: tc.system}}}); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate("file://"+filepath.ToSlash(page))); err != nil {
			t.Fatal(err)
		}
		papers, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
			`[...document.querySelectorAll("svg")].map(s => getComputedStyle(s.querySelector(".p0")).fill)`))
		if err != nil {
			t.Fatal(err)
		}
		if len(papers) != 2 || papers[0] != tc.auto || papers[1] != tc.fixed {
			t.Errorf("%s, system %s: papers %s, want %s and %s", tc.html, tc.system, strings.Join(papers, ", "), tc.auto, tc.fixed)
		}
	}
}

// TestThemeFlags: grid -theme and md -theme take auto, light and dark; another value is a
// usage error (exit 2) that lists them.
func TestThemeFlags(t *testing.T) {
	spec := repoFile(t, "examples/protocols/udp.yaml")
	src := filepath.Join(t.TempDir(), "p.md")
	os.WriteFile(src, []byte("```bytegrid\n"+readRepo(t, "examples/protocols/udp.yaml")+"```\n"), 0o644)
	for _, args := range [][]string{{"grid", spec, "-format", "svg"}, {"md", "-inline", src}} {
		out, errs, code := runCmd(t, append(args, "-theme", "dark")...)
		if code != 0 || !strings.Contains(out, "fill:#0d1117") || strings.Contains(out, "prefers-color-scheme") {
			t.Errorf("%s -theme dark: exit %d, %s", args[0], code, errs)
		}
		if _, errs, code := runCmd(t, append(args, "-theme", "sepia")...); code != 2 || !strings.Contains(errs, `-theme "sepia": want auto, light, dark`) {
			t.Errorf("%s -theme sepia: exit %d, %s; want 2", args[0], code, errs)
		}
	}
}
