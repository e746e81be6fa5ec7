package kafka

import (
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/schemas"
)

// LoadAPI loads from the release folder dir only what showing one API needs: it reads every
// spec file for its header (schemas.ScanFolder), finds the API nameOrKey names as Lookup would
// in the whole release's catalogue, and parses that API's request and response and the
// release's RequestHeader and ResponseHeader, where loading the release parses all of its
// some 190 files. The catalogue holds that API alone; the release is named as Open names it,
// or name when not empty. A spec file that is not parsed is not checked beyond its header.
//
// ok is false when the whole release must be loaded instead (NewCatalog of schemas.Open):
// a file whose header is not plain, an API that is not found, or found twice, or that the
// whole catalogue's checks refuse, and an API whose examples or drawings use other APIs (an
// Envelope's forwarded request; an ApiKey field, whose values are shown with every API's
// name). Loading the whole release then gives the error, or the same catalogue entry.
func LoadAPI(dir, nameOrKey, name string) (cat *Catalog, api *API, ok bool) {
	x, ok := schemas.ScanFolder(dir)
	if !ok {
		return nil, nil, false
	}
	req, resp, ok := headerLookup(x.Headers, nameOrKey)
	if !ok {
		return nil, nil, false
	}
	keep := func(h schemas.Header) bool {
		return h == req || h == resp || h.Type == "header" && (h.Name == "RequestHeader" || h.Name == "ResponseHeader")
	}
	r, err := x.Load(keep)
	if err != nil {
		return nil, nil, false
	}
	if name != "" {
		r.SetName(name)
	}
	if cat, err = NewCatalog(r); err != nil {
		return nil, nil, false
	}
	if api, ok = cat.Lookup(nameOrKey); !ok || usesOtherAPIs(api) {
		return nil, nil, false
	}
	return cat, api, true
}

// headerLookup finds the API q names among a release's headers as NewCatalog and Lookup
// would: its request and response headers, ok false unless exactly one API matches and every
// request with versions has a response of the same highest version.
func headerLookup(hs []schemas.Header, q string) (req, resp schemas.Header, ok bool) {
	responses := map[int16]schemas.Header{}
	for _, h := range hs {
		if h.Type == "response" && h.HasAPIKey {
			responses[h.APIKey] = h
		}
	}
	q = strings.TrimSpace(q)
	key, err := strconv.ParseInt(q, 10, 16)
	byKey := err == nil
	found := 0
	for _, h := range hs {
		v, set := h.ValidVersions.Highest()
		if h.Type != "request" || !h.HasAPIKey || !set {
			continue
		}
		rh, has := responses[h.APIKey]
		if rv, rset := rh.ValidVersions.Highest(); !has || !rset || rv != v || v == schemas.MaxVersion {
			return req, resp, false // NewCatalog refuses the release
		}
		match := byKey && int64(h.APIKey) == key
		if !byKey {
			match = strings.EqualFold(q, strings.TrimSuffix(h.Name, "Request")) || strings.EqualFold(q, h.Name) || strings.EqualFold(q, rh.Name)
		}
		if match {
			req, resp = h, rh
			found++
		}
	}
	return req, resp, found == 1
}

// usesOtherAPIs reports whether an API's example or drawing needs other APIs of the release:
// an Envelope forwards another API's request, and an ApiKey field's values are named by the
// APIs they key.
func usesOtherAPIs(a *API) bool {
	if FactsOf(a.Key, a.Name).Envelope {
		return true
	}
	uses := false
	for _, s := range []*schemas.Spec{a.Request, a.Response} {
		s.Walk(func(f *schemas.Field) bool {
			uses = uses || f.Name == "ApiKey" || f.Name == "RequestApiKey"
			return !uses
		})
	}
	return uses
}
