package io.hostloom.wopihost.tomcat;

import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Tomcat at the edge: the header deadline ({@link HeaderDeadlineProtocol}) and no body swallowing
 * after an early answer ({@link EarlyAnswerValve}). Spring's body-reading filters are turned off in
 * {@code application.yml} ({@code spring.mvc.formcontent.filter.enabled=false}) and Tomcat parses
 * no form body for {@code getParameter} (its {@code maxPostSize} is 0).
 */
@Configuration(proxyBeanMethods = false)
public class EdgeConfiguration {
  @Bean
  WebServerFactoryCustomizer<TomcatServletWebServerFactory> edgeTomcatCustomizer(
      EdgeProperties props) {
    return factory -> {
      factory.setProtocol(HeaderDeadlineProtocol.class.getName());
      factory.addProtocolHandlerCustomizers(
          handler -> {
            if (handler instanceof HeaderDeadlineProtocol p) {
              p.setMaxHeaderTime(props.maxHeaderTime());
            }
          });
      // getParameter never reads a form body (Spring Boot ignores a max-http-form-post-size of 0)
      factory.addConnectorCustomizers(connector -> connector.setMaxPostSize(0));
      factory.addEngineValves(new EarlyAnswerValve());
    };
  }
}
