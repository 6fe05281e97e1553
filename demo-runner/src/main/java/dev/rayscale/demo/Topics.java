package dev.rayscale.demo;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.errors.TopicExistsException;

/** Creates Rayscale's topics up front, as a real deployment does (the Helm chart's Strimzi KafkaTopics), so that no consumer waits for one to appear. */
public final class Topics {

    private static final List<String> NAMES = List.of(dev.rayscale.events.Topics.SNAPSHOTS, dev.rayscale.events.Topics.DECISIONS,
            dev.rayscale.events.Topics.ACTUATIONS, dev.rayscale.events.Topics.deadLetter("scaling-planner"),
            dev.rayscale.events.Topics.deadLetter("k8s-actuator"));

    static final int PARTITIONS = 3;

    private Topics() {
    }

    /**
     * Waits until each consumer group is stable with every partition of its topic assigned, twice in a row
     * (a service with several consumers joins them one by one, each join a rebalance): the services are
     * then really listening.
     */
    static void awaitAssigned(String bootstrapServers, List<String> groups, Duration within) {
        awaitAssigned(bootstrapServers, groups, PARTITIONS, within);
    }

    /**
     * As {@link #awaitAssigned(String, List, java.time.Duration)}, for topics of {@code partitions} partitions; fails, saying
     * what it saw last, when the groups are not ready in time (a service that never listens is not one to measure).
     */
    public static void awaitAssigned(String bootstrapServers, List<String> groups, int partitions, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        String seen = "nothing yet";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            int stableRounds = 0;
            while (System.nanoTime() < deadline) {
                var described = admin.describeConsumerGroups(groups).all().get(10, TimeUnit.SECONDS);
                boolean assigned = described.values().stream().allMatch(group -> group.groupState() == GroupState.STABLE
                        && assignedPartitions(group) == partitions);
                seen = described.values().stream().map(group -> group.groupId() + " " + group.groupState() + " with "
                        + assignedPartitions(group) + " partition(s) assigned").toList().toString();
                stableRounds = assigned ? stableRounds + 1 : 0;
                if (stableRounds >= 2) {
                    return;
                }
                Thread.sleep(250);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the consumer groups " + groups, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot describe the consumer groups", e);
        }
        throw new IllegalStateException("the consumer groups were not stable with all " + partitions + " partitions assigned within "
                + within + "; last seen: " + seen);
    }

    private static int assignedPartitions(ConsumerGroupDescription group) {
        return group.members().stream().mapToInt(member -> member.assignment().topicPartitions().size()).sum();
    }

    /** How many partitions {@code topic} has. */
    public static int partitions(String bootstrapServers, String topic) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions().size();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while describing " + topic, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot describe topic " + topic, e);
        }
    }

    static void create(String bootstrapServers) {
        create(bootstrapServers, PARTITIONS);
    }

    /** Creates the topics with {@code partitions} partitions each, unless they exist. */
    public static void create(String bootstrapServers, int partitions) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            for (String name : NAMES) {
                try {
                    admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("cannot create topic " + name, e.getCause());
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka did not create the topics in time", e);
        }
    }
}
