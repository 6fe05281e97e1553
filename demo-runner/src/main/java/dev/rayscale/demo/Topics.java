package dev.rayscale.demo;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
     * Waits until each consumer group is stable with every partition of its topic assigned, twice in a row (a service with
     * several consumers joins them one by one, each join a rebalance): the services are then really listening. A topic
     * counts the partitions it has, whatever created it (on a shared broker, maybe not these services). Fails, saying what
     * it saw last, when the groups are not ready in time (a service that never listens is not one to measure).
     *
     * @param groupTopics each consumer group and the topic it reads
     */
    public static void awaitAssigned(String bootstrapServers, Map<String, String> groupTopics, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        String seen = "nothing yet";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            Map<String, Integer> partitions = partitions(admin, groupTopics.values());
            int stableRounds = 0;
            while (System.nanoTime() < deadline) {
                var described = admin.describeConsumerGroups(groupTopics.keySet()).all().get(10, TimeUnit.SECONDS);
                boolean assigned = described.values().stream().allMatch(group -> group.groupState() == GroupState.STABLE
                        && assignedPartitions(group) == partitions.get(groupTopics.get(group.groupId())));
                seen = described.values().stream().map(group -> group.groupId() + " " + group.groupState() + " with "
                        + assignedPartitions(group) + " of " + partitions.get(groupTopics.get(group.groupId())) + " partition(s) assigned")
                        .sorted().toList().toString();
                stableRounds = assigned ? stableRounds + 1 : 0;
                if (stableRounds >= 2) {
                    return;
                }
                Thread.sleep(250);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the consumer groups " + groupTopics.keySet(), e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot describe the consumer groups", e);
        }
        throw new IllegalStateException("the consumer groups were not stable with all their partitions assigned within " + within
                + "; last seen: " + seen);
    }

    private static int assignedPartitions(ConsumerGroupDescription group) {
        return group.members().stream().mapToInt(member -> member.assignment().topicPartitions().size()).sum();
    }

    /** How many partitions each of {@code topics} has. */
    static Map<String, Integer> partitions(Admin admin, Collection<String> topics) throws ExecutionException, InterruptedException,
            TimeoutException {
        Map<String, Integer> partitions = new HashMap<>();
        admin.describeTopics(Set.copyOf(topics)).allTopicNames().get(30, TimeUnit.SECONDS)
                .forEach((topic, description) -> partitions.put(topic, description.partitions().size()));
        return partitions;
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
