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
CMD ["crawl", "--profile", "/data/profile.yaml", "--out", "/data/crawl"]
