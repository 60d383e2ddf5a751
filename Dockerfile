# vision-tasks serve on Debian 12: release build in the Swift image, run as a non-root user.
#   docker build -t vision-tasks .
#   docker run -p 8080:8080 -v $PWD/models:/models:ro -v $PWD/token:/run/secrets/vision-tasks/token:ro vision-tasks
# The models are mounted, not baked in; the token file is required because the server binds 0.0.0.0.

FROM swift:6.3.1-bookworm AS build
WORKDIR /src
COPY . .
RUN ./scripts/bootstrap \
 && swift build -c release --product vision-tasks --static-swift-stdlib \
 && install -D "$(swift build -c release --show-bin-path)/vision-tasks" /out/vision-tasks

FROM debian:12-slim
# The runtime libraries of the -dev packages scripts/bootstrap installs (libssl3: libcrypto for model
# downloads; libcurl4: model transfers, and with libxml2 the statically linked FoundationNetworking and
# FoundationXML),
# liblbfgs0 and libopenblas0 for `train`, and LiteRT from the build stage.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libjpeg62-turbo libpng16-16 libwebp7 libwebpmux3 libzip4 libmicrohttpd12 \
      libavformat59 libavcodec59 libavutil57 libswscale6 libavdevice59 libssl3 libcurl4 libxml2 ca-certificates \
      liblbfgs0 libopenblas0 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /usr/local/lib/libLiteRt.so /usr/local/lib/
COPY --from=build /out/vision-tasks /usr/local/bin/
RUN ldconfig && useradd --system --uid 10001 --no-create-home vision
USER 10001
EXPOSE 8080
ENTRYPOINT ["vision-tasks"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080", "--token-file", "/run/secrets/vision-tasks/token", \
     "--model", "mobilenet=/models/mobilenet_v1_0.25_224_quant.tflite"]
