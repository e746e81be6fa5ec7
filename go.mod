module github.com/kafkagrid/kafkagrid

go 1.26.0

require golang.org/x/image v0.48.0

require golang.org/x/text v0.44.0 // indirect
