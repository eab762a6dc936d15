package guard

import (
	"strings"
	"testing"
)

// TestBrokerEffects: message brokers' admin CLIs, each dangerous act
// with its harmless neighbour (a read, a dry run, the local broker).
func TestBrokerEffects(t *testing.T) {
	cases := []struct {
		cmd  string
		want Verdict
		rule string
	}{
		// Kafka's scripts name their action by an option.
		{"kafka-topics.sh --bootstrap-server kafka-prod-1:9092 --delete --topic orders", Deny, "prod.destroy"},
		{"kafka-topics --bootstrap-server kafka-prod-1:9092 --describe --topic orders", Allow, ""},
		{"kafka-topics.sh --bootstrap-server kafka-prod-1:9092 --alter --topic orders --partitions 24", Ask, "prod.change"},
		{"kafka-topics.sh --bootstrap-server localhost:9092 --create --topic orders", Allow, ""},
		{"kafka-configs.sh --bootstrap-server kafka-prod-1:9092 --alter --entity-type topics --entity-name orders --add-config retention.ms=1000", Deny, "prod.destroy"},
		{"kafka-configs.sh --bootstrap-server kafka-prod-1:9092 --alter --entity-type topics --entity-name orders --add-config retention.ms=604800000", Ask, "prod.change"},
		{"kafka-configs.sh --bootstrap-server kafka-prod-1:9092 --describe --entity-type topics --entity-name orders", Allow, ""},
		{"kafka-consumer-groups.sh --bootstrap-server kafka-prod-1:9092 --group billing --reset-offsets --to-earliest --topic payments --execute", Ask, "prod.change"},
		{"kafka-consumer-groups.sh --bootstrap-server kafka-prod-1:9092 --group billing --reset-offsets --to-earliest --topic payments", Allow, ""},
		{"kafka-consumer-groups.sh --bootstrap-server kafka-prod-1:9092 --delete --group billing", Ask, "prod.change"},
		{"kafka-consumer-groups.sh --bootstrap-server kafka-prod-1:9092 --describe --group billing", Allow, ""},
		{"kafka-console-producer.sh --bootstrap-server kafka-prod-1:9092 --topic payments", Ask, "prod.change"},
		{"kafka-console-producer.sh --bootstrap-server localhost:9092 --topic payments", Allow, ""},
		{"kafka-delete-records.sh --bootstrap-server kafka-prod-1:9092 --offset-json-file offsets.json", Deny, "prod.destroy"},
		{"kcat -P -b kafka-prod-1:9092 -t payments", Ask, "prod.change"},
		{"kcat -C -b kafka-prod-1:9092 -t payments -c 5", Allow, ""},
		{"kafka-acls.sh --bootstrap-server kafka-prod-1:9092 --add --allow-principal 'User:*' --operation All --topic '*'", Deny, "access.public"},
		{"kafka-acls.sh --bootstrap-server kafka-prod-1:9092 --add --allow-principal User:billing --operation Read --topic payments", Ask, "access.grant"},
		{"kafka-acls.sh --bootstrap-server kafka-prod-1:9092 --list", Allow, ""},
		// RabbitMQ, NATS, Redpanda, Pulsar: a verb word (rabbitmqctl's
		// snake_case ones read by their parts).
		{"rabbitmqctl -n rabbit@mq-prod-1 purge_queue orders", Deny, "prod.destroy"},
		{"rabbitmqctl -n rabbit@mq-prod-1 list_queues name messages", Allow, ""},
		{"rabbitmqctl -n rabbit@mq-prod-1 stop_app", Ask, "prod.change"},
		{"rabbitmqctl status", Allow, ""},
		{"rabbitmqctl -n rabbit@mq-prod-1 reset", Deny, "prod.destroy"},
		{`rabbitmqadmin -H mq-prod.internal -u admin -p "$PW" publish exchange=orders routing_key=x payload=y`, Ask, "prod.change"},
		{"rabbitmqadmin -H mq-prod.internal list queues", Allow, ""},
		{"rabbitmqadmin -H mq-staging.internal delete queue name=email-retry", Ask, "remote.destroy"},
		{"rabbitmqadmin -H localhost declare queue name=dev-jobs", Allow, ""},
		{"nats stream rm ORDERS -f --server nats://nats-prod.internal:4222", Deny, "prod.destroy"},
		{"nats stream ls --server nats://nats-prod.internal:4222", Allow, ""},
		{"nats pub orders hi --server nats://nats-prod.internal:4222", Ask, "prod.change"},
		{"nats sub orders --server nats://nats-prod.internal:4222", Allow, ""},
		{"rpk topic delete orders --brokers redpanda-prod:9092", Deny, "prod.destroy"},
		{"rpk topic list --brokers redpanda-prod:9092", Allow, ""},
		{"pulsar-admin --admin-url http://pulsar-prod:8080 topics delete persistent://public/default/orders", Deny, "prod.destroy"},
		{"pulsar-admin --admin-url http://pulsar-prod:8080 topics list public/default", Allow, ""},
	}
	for _, tc := range cases {
		got := check(t, DefaultPolicy(), tc.cmd)
		if got.Verdict != tc.want || tc.rule != "" && got.Rule != tc.rule {
			t.Errorf("%q = %s %s (%s), want %s %s", tc.cmd, got.Verdict, got.Rule, got.Evidence, tc.want, tc.rule)
		}
	}
}

// TestBrokerOpsRegistered: every broker tool has its deriver registration.
func TestBrokerOpsRegistered(t *testing.T) {
	reg := map[string]bool{}
	for _, r := range remoteDerivers {
		if strings.Contains(r.names, "kafka-acls") {
			for _, n := range strings.Split(r.names, "|") {
				reg[n] = true
			}
		}
	}
	for _, op := range brokerOps {
		for _, n := range strings.Split(op.names, "|") {
			if !reg[n] {
				t.Errorf("%s is in brokerOps but has no deriver registration", n)
			}
		}
	}
}
