package dev.payrelay.e2e;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Grpc;
import io.grpc.HandlerRegistry;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * A TLS front for the real Temporal dev server, as a TLS-terminating gateway or Temporal Cloud is:
 * TLS with the given server certificate, a client certificate from {@code clientCa} required
 * (mTLS), and {@code authorization: Bearer <apiKey>} required on every call (else UNAUTHENTICATED).
 * Accepted calls go on, byte for byte, to the plain-text dev server.
 */
final class TlsGrpcProxy implements AutoCloseable {

  private static final MethodDescriptor.Marshaller<byte[]> BYTES =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
          return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
          try {
            return stream.readAllBytes();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      };

  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private final ManagedChannel backend;
  private final Server server;

  /** The client certificate subjects of accepted calls. */
  final List<String> clientSubjects = new CopyOnWriteArrayList<>();

  /** The authorization header of every call, accepted or not. */
  final List<String> authorizations = new CopyOnWriteArrayList<>();

  TlsGrpcProxy(String backendTarget, TestPki.Issued serverCert, Path clientCa, String apiKey)
      throws IOException {
    backend = ManagedChannelBuilder.forTarget(backendTarget).usePlaintext().build();
    server =
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .sslContext(
                GrpcSslContexts.forServer(serverCert.cert().toFile(), serverCert.key().toFile())
                    .trustManager(clientCa.toFile())
                    .clientAuth(ClientAuth.REQUIRE)
                    .build())
            .fallbackHandlerRegistry(new Forwarding())
            .intercept(new ApiKeyCheck("Bearer " + apiKey))
            .build()
            .start();
  }

  /** Where clients connect: {@code 127.0.0.1:<port>}. */
  String target() {
    return "127.0.0.1:" + server.getPort();
  }

  private final class ApiKeyCheck implements ServerInterceptor {
    private final String expected;

    ApiKeyCheck(String expected) {
      this.expected = expected;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
        ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
      String authorization = headers.get(AUTHORIZATION);
      authorizations.add(String.valueOf(authorization));
      if (!expected.equals(authorization)) {
        call.close(Status.UNAUTHENTICATED.withDescription("invalid API key"), new Metadata());
        return new ServerCall.Listener<>() {};
      }
      SSLSession tls = call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
      try {
        clientSubjects.add(tls.getPeerPrincipal().getName());
      } catch (SSLPeerUnverifiedException e) {
        call.close(Status.UNAUTHENTICATED.withDescription("no client certificate"), new Metadata());
        return new ServerCall.Listener<>() {};
      }
      return next.startCall(call, headers);
    }
  }

  /** Every method, forwarded unchanged to the backend. */
  private final class Forwarding extends HandlerRegistry {
    @Override
    public ServerMethodDefinition<?, ?> lookupMethod(String method, String authority) {
      MethodDescriptor<byte[], byte[]> descriptor =
          MethodDescriptor.newBuilder(BYTES, BYTES)
              .setFullMethodName(method)
              .setType(MethodDescriptor.MethodType.UNKNOWN)
              .build();
      return ServerMethodDefinition.create(descriptor, this::forward);
    }

    private ServerCall.Listener<byte[]> forward(
        ServerCall<byte[], byte[]> serverCall, Metadata headers) {
      ClientCall<byte[], byte[]> clientCall =
          backend.newCall(serverCall.getMethodDescriptor(), CallOptions.DEFAULT);
      clientCall.start(
          new ClientCall.Listener<>() {
            @Override
            public void onHeaders(Metadata responseHeaders) {
              serverCall.sendHeaders(responseHeaders);
            }

            @Override
            public void onMessage(byte[] message) {
              serverCall.sendMessage(message);
            }

            @Override
            public void onClose(Status status, Metadata trailers) {
              serverCall.close(status, trailers);
            }
          },
          headers);
      clientCall.request(Integer.MAX_VALUE);
      serverCall.request(Integer.MAX_VALUE);
      return new ServerCall.Listener<>() {
        @Override
        public void onMessage(byte[] message) {
          clientCall.sendMessage(message);
        }

        @Override
        public void onHalfClose() {
          clientCall.halfClose();
        }

        @Override
        public void onCancel() {
          clientCall.cancel("client cancelled", null);
        }
      };
    }
  }

  @Override
  public void close() throws InterruptedException {
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    backend.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }
}
