# Builds a static langcrawl binary into a small image that runs as a
# non-root user, with the output directory as a volume.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o /out/langcrawl ./cmd/langcrawl

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/langcrawl /usr/local/bin/langcrawl
USER nonroot:nonroot
VOLUME ["/data"]
WORKDIR /data
ENTRYPOINT ["/usr/local/bin/langcrawl"]
# The profile's out: is respected; without one, the crawl goes to /data/crawl
# (the default ./crawl under the working directory /data).
CMD ["crawl", "--profile", "/data/profile.yaml"]
