package kafka

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kafkagrid/kafkagrid/schemas"
)

// API is one Kafka API of a release: a request spec with valid versions and its response.
type API struct {
	Key       int16
	Name      string        // "Produce": the request spec's name without "Request"
	Version   int16         // the highest valid version
	Lowest    int16         // the lowest valid version
	Flexible  bool          // Version is flexible (KIP-482)
	Unstable  bool          // Version is marked unstable (latestVersionUnstable)
	Listeners []string      // where the API is served: "broker", "controller", …
	Category  string        // the index's section (the facts table, apis.go; else by name, categories.go)
	Release   string        // the release's name, "4.0"
	Request   *schemas.Spec // never nil
	Response  *schemas.Spec // never nil
}

// Category is a section of the index with its APIs in order.
type Category struct {
	Name string
	APIs []*API
}

// Catalog is the APIs of a release, in index order.
type Catalog struct {
	Release    *schemas.Release
	APIs       []*API     // categories in table order, APIs in table order within each; Other last, by key
	Categories []Category // the non-empty categories, in the same order

	reqHeader *schemas.Spec // the release's RequestHeader as versionedHeader reads it
}

// NewCatalog lists the APIs of a release: every request spec with valid versions, paired with
// the response of the same key. A request without a response, or whose response does not
// share its highest version, is an error.
func NewCatalog(r *schemas.Release) (*Catalog, error) {
	if r == nil {
		return nil, fmt.Errorf("kafka: catalog: no release")
	}
	byKey := map[int16]*API{}
	for _, req := range r.Requests() {
		v, ok := req.Highest()
		if !ok {
			continue // removed from this release ("validVersions": "none")
		}
		resp := r.Response(req.APIKey)
		if resp == nil {
			return nil, fmt.Errorf("kafka: catalog: %s (key %d) has no response spec", req.Name, req.APIKey)
		}
		if rv, ok := resp.Highest(); !ok || rv != v {
			return nil, fmt.Errorf("kafka: catalog: %s: highest version %d, but %s has %s", req.Name, v, resp.Name, resp.ValidVersions)
		}
		if v == schemas.MaxVersion {
			return nil, fmt.Errorf("kafka: catalog: %s: validVersions %q has no highest version", req.Name, req.ValidVersions)
		}
		byKey[req.APIKey] = &API{
			Key:       req.APIKey,
			Name:      strings.TrimSuffix(req.Name, "Request"),
			Version:   v,
			Lowest:    req.ValidVersions.Lo,
			Flexible:  req.FlexibleIn(v),
			Unstable:  req.UnstableIn(v),
			Listeners: append([]string(nil), req.Listeners...),
			Release:   r.Name(),
			Request:   req,
			Response:  resp,
		}
	}
	c := &Catalog{Release: r}
	if h := r.Header("RequestHeader"); h != nil {
		c.reqHeader = versionedHeader(h)
	}
	placed := map[int16]bool{}
	for _, cat := range categories() {
		sec := Category{Name: cat.name}
		for _, k := range cat.keys {
			if a := byKey[k]; a != nil && !placed[k] {
				a.Category = cat.name
				sec.APIs = append(sec.APIs, a)
				placed[k] = true
			}
		}
		c.add(sec)
	}
	// APIs the table does not place (a newer release's) go to a category by categoryByRule,
	// after the table's APIs of that category, by key; OtherCategory comes last.
	var rest []*API
	for _, a := range byKey {
		if !placed[a.Key] {
			a.Category = categoryByRule(a.Name, a.Listeners)
			rest = append(rest, a)
		}
	}
	sort.Slice(rest, func(i, j int) bool { return rest[i].Key < rest[j].Key })
	for _, a := range rest {
		c.place(a)
	}
	return c, nil
}

// place adds an API to the end of its category, adding the category (before Other) if the
// release has no other API in it.
func (c *Catalog) place(a *API) {
	i := slices.IndexFunc(c.Categories, func(sec Category) bool { return sec.Name == a.Category })
	if i < 0 {
		sec := Category{Name: a.Category}
		// Table order for a table category, else before Other.
		i = len(c.Categories)
		if order := slices.IndexFunc(categories(), func(cat category) bool { return cat.name == a.Category }); order >= 0 {
			i = slices.IndexFunc(c.Categories, func(sec Category) bool {
				o := slices.IndexFunc(categories(), func(cat category) bool { return cat.name == sec.Name })
				return o < 0 || o > order
			})
			if i < 0 {
				i = len(c.Categories)
			}
		} else if n := len(c.Categories); n > 0 && c.Categories[n-1].Name == OtherCategory && a.Category != OtherCategory {
			i = n - 1
		}
		c.Categories = slices.Insert(c.Categories, i, sec)
	}
	c.Categories[i].APIs = append(c.Categories[i].APIs, a)
	c.APIs = c.APIs[:0]
	for _, sec := range c.Categories {
		c.APIs = append(c.APIs, sec.APIs...)
	}
}

func (c *Catalog) add(sec Category) {
	if len(sec.APIs) == 0 {
		return
	}
	c.Categories = append(c.Categories, sec)
	c.APIs = append(c.APIs, sec.APIs...)
}

// LoadCatalog loads a release (schemas.Open: a folder, a kafka-clients jar or a Kafka
// installation) and lists its APIs.
func LoadCatalog(path string) (*Catalog, error) {
	r, err := schemas.Open(path)
	if err != nil {
		return nil, err
	}
	return NewCatalog(r)
}

// Lookup finds an API by name ("Produce"), by request or response spec name
// ("ProduceRequest") or by key ("0"), ignoring case.
func (c *Catalog) Lookup(nameOrKey string) (*API, bool) {
	q := strings.TrimSpace(nameOrKey)
	if k, err := strconv.ParseInt(q, 10, 16); err == nil {
		for _, a := range c.APIs {
			if int64(a.Key) == k {
				return a, true
			}
		}
		return nil, false
	}
	for _, a := range c.APIs {
		if strings.EqualFold(q, a.Name) || strings.EqualFold(q, a.Request.Name) || strings.EqualFold(q, a.Response.Name) {
			return a, true
		}
	}
	return nil, false
}
